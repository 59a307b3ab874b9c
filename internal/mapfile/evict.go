package mapfile

// EvictRange hands the memory pages holding bytes [lo, hi) of the file
// back to the operating system (whole pages inside the range only); later
// reads fault them in again from the page cache. A no-op after Close and
// where the system cannot do it.
func (f *File) EvictRange(lo, hi uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.unmap == nil {
		return
	}
	hi = min(hi, uint64(len(f.data)))
	if lo >= hi {
		return // also keeps the rounding up of lo from wrapping around
	}
	page := uint64(pageSize)
	lo = (lo + page - 1) / page * page
	hi = hi / page * page
	if hi <= lo {
		return
	}
	dropPages(f.data[lo:hi])
}
