//go:build !unix

package scan

import "os"

func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }
