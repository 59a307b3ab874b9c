//go:build !unix

package mapfile

import "os"

// identOf is what identifies the file's contents where there are no
// inodes: size and modification time.
func identOf(st os.FileInfo) ident {
	return ident{size: st.Size(), mtime: st.ModTime().UnixNano()}
}
