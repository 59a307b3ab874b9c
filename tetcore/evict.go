package tetcore

// Evict tells the operating system that the process no longer needs the
// mapped pages that lie wholly inside chunk c's stored bytes. The pages
// stay in the page cache and are mapped again, with the same contents,
// if anything reads them later; dropping them only keeps a long scan of a
// large file from growing the process's resident set by the whole file.
// It does nothing for files parsed from bytes, or once the file is
// closed, and never fails.
func (f *File) Evict(c *Chunk) {
	f.EvictRange(c.Offset, c.Offset+uint64(c.StoredLen))
}

// EvictRange is [File.Evict] for the stored bytes [start, end) of the
// file, typically several neighbouring chunks at once: the pages lying
// wholly inside the range are dropped in one call.
func (f *File) EvictRange(start, end uint64) {
	if f.unmap == nil || f.isClosed() {
		return
	}
	page := uint64(pageSize)
	lo := (start + page - 1) / page * page
	hi := min(end, uint64(len(f.data))) / page * page
	if hi <= lo {
		return
	}
	dropPages(f.data[lo:hi])
}
