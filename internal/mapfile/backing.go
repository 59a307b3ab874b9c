package mapfile

// Backing gives a format's source the capabilities of the mapping it
// reads from: embedded in the source, it provides Close and the methods
// of array.Pinner (Acquire, Release), array.ChangeChecker
// (CheckUnchanged) and array.Evicter (EvictRange), all delegated to the
// File. Guard and Copy are left out on purpose: a source that decodes
// every chunk hands out no bytes of the mapping, so it is no
// array.Guarder.
type Backing struct{ f *File }

// BackedBy is the Backing of f.
func BackedBy(f *File) Backing { return Backing{f} }

// Close releases the mapping (at the last Release when pinned).
func (b Backing) Close() error { return b.f.Close() }

// Acquire pins the mapping (see File.Acquire).
func (b Backing) Acquire() error { return b.f.Acquire() }

// Release undoes one Acquire.
func (b Backing) Release() { b.f.Release() }

// CheckUnchanged reports whether the file changed on disk since Open.
func (b Backing) CheckUnchanged() error { return b.f.CheckUnchanged() }

// EvictRange hands the pages of bytes [lo, hi) back to the system.
func (b Backing) EvictRange(lo, hi uint64) { b.f.EvictRange(lo, hi) }
