//go:build !unix

package tetcore

import "os"

// identOf: without inode numbers, size and modification time.
func identOf(st os.FileInfo) fileIdent {
	return fileIdent{size: st.Size(), mtime: st.ModTime().UnixNano()}
}
