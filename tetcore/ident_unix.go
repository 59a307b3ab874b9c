//go:build unix

package tetcore

import (
	"os"
	"syscall"
)

// openNonBlocking opens path read-only without blocking: opening a FIFO
// with no writer would otherwise wait forever (the caller refuses it).
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// identOf is what identifies the file's contents: device, inode, size
// and modification time.
func identOf(st os.FileInfo) fileIdent {
	id := fileIdent{size: st.Size(), mtime: st.ModTime().UnixNano()}
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		id.dev, id.ino = uint64(s.Dev), uint64(s.Ino)
	}
	return id
}
