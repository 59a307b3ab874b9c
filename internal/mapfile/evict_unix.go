//go:build unix

package mapfile

import (
	"os"
	"syscall"
)

var pageSize = os.Getpagesize()

// dropPages unmaps the pages of b (page-aligned, part of a read-only file
// mapping) from the process; later reads fault them in again from the
// page cache.
func dropPages(b []byte) { _ = syscall.Madvise(b, syscall.MADV_DONTNEED) }
