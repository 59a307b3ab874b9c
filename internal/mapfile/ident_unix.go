//go:build unix

package mapfile

import (
	"os"
	"syscall"
)

// identOf is what identifies the file's contents: device, inode, size
// and modification time.
func identOf(st os.FileInfo) ident {
	id := ident{size: st.Size(), mtime: st.ModTime().UnixNano()}
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		id.dev, id.ino = uint64(s.Dev), uint64(s.Ino)
	}
	return id
}
