//go:build unix

package array

import (
	"os"
	"syscall"
)

// openNonBlocking opens path read-only without blocking: opening a FIFO
// with no writer would otherwise wait forever (the caller refuses it).
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
