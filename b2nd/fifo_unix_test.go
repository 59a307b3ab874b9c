//go:build unix

package b2nd

import "syscall"

func mkfifo(p string) error { return syscall.Mkfifo(p, 0o644) }
