//go:build !unix

package b2nd

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs on this system") }
