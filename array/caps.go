package array

// The optional capabilities of a Source or an Array, found by type
// assertion.

// ChunkLister is an Array that lists the chunks its file stores, in id
// order, without walking the grid: a sparse grid may declare far more
// positions than the file stores. Without it, a listing walks every grid
// position.
type ChunkLister interface {
	StoredChunks(yield func(ChunkInfo) bool)
}

// Pinner is a source whose memory stays valid while pinned: Acquire pins
// it (and fails with an error wrapping ErrClosed after Close, or
// ErrChanged once the file on disk is no longer the one opened), Release
// undoes one Acquire; a Close while pinned takes effect at the last
// Release.
type Pinner interface {
	Acquire() error
	Release()
}

// Guarder is a source whose in-place chunk bytes (ChunkInfo.InPlace) may
// fault when the file shrinks under the mapping. Guard runs read and
// turns such a fault into an error wrapping ErrChanged; Copy is the
// built-in copy of mapped bytes under Guard.
type Guarder interface {
	Guard(read func()) error
	Copy(dst, src []byte) (int, error)
}

// ChangeChecker is a source that can tell whether its file changed on
// disk since Open: CheckUnchanged returns an error wrapping ErrChanged
// when it did.
type ChangeChecker interface {
	CheckUnchanged() error
}

// Evicter is a source that can hand the memory pages holding stored bytes
// back to the operating system once a scan is done with them: the bytes
// [lo, hi) of the file, as ChunkInfo.Offset and StoredBytes give them.
type Evicter interface {
	EvictRange(lo, hi uint64)
}

// History is one provenance row of a file.
type History struct {
	Op      string
	Source  string
	At      string
	Parents []string
	Params  map[string]string
}

// Historian is a source that records provenance.
type Historian interface {
	History() []History
}

// Description is what a source says about itself for the file metadata
// table; zero fields are shown as NULL.
type Description struct {
	Format        string // Format.Name of the source's format
	Size          int64  // file size in bytes
	LayoutVersion int64  // the format's layout or frame version
	Footer        string // the state of the file's metadata: "ok", "absent", "damaged: …"
	// MemoryBudgetBPS and MemoryBudgetBytes are the file's hints on how
	// much memory a reader may use (.tet only).
	MemoryBudgetBPS   int64
	MemoryBudgetBytes int64
}

// Describer is a source that describes itself.
type Describer interface {
	Describe() Description
}

// Finding is one observation of a verification.
type Finding struct {
	Severity string  // "error" or "warning"
	Array    string  // "" for file-level findings
	Chunk    []int64 // grid coordinates, nil for none
	Message  string
}

// Verifier is a source that can check itself: structure only, or (deep)
// also every chunk decoded and every hash checked. A deep check decodes
// no chunk larger than maxChunkBytes (0 = the format's default): such a
// chunk is an error finding, as it is for a query under that limit.
type Verifier interface {
	Verify(deep bool, maxChunkBytes int64) ([]Finding, error)
}

// ZoneMap is what a format stores about the values of one chunk: Count
// elements in all, Nulls of them NaN, and the smallest and largest of
// the others (±Inf included) as the dtype's little-endian bytes, nil
// when every element is NaN.
type ZoneMap struct {
	Count, Nulls int64
	Min, Max     []byte
}

// ZoneMapper is an Array whose format stores per-chunk statistics (the
// footer v2 zone maps of .tet), checked against the array's geometry and
// dtype when first used; a set that fails the check is not offered (the
// source's Verifier reports it). ZoneMap reports chunk id's, ok=false
// when none is stored. The statistics are a hint a reader may use to
// skip chunks; chunks it reads anyway let it check them.
type ZoneMapper interface {
	ZoneMap(id int64) (ZoneMap, bool)
}

// DirFormat is a Format whose files may be directories (a Blosc2 sparse
// frame is a directory of chunk files). SniffDir reports whether the
// directory dir is one of its files; Open is then given the directory.
type DirFormat interface {
	SniffDir(dir string) bool
}

// BoxReader is an Array that can decode part of a chunk: the elements
// of chunk id inside the chunk-local box [lo, hi) (per axis, within the
// chunk's edge-trimmed extent). The result is laid out as ReadChunk's,
// the whole edge-trimmed chunk; when partial is true only the elements
// inside the box are defined and the others hold arbitrary bytes, so the
// result must never be cached, summarised or handed on as the chunk
// (partial is false when the format decoded the whole chunk, which it
// may do whenever that is cheaper). decoded is how many bytes the format
// decoded for it. dst is used as by ReadChunk.
type BoxReader interface {
	ReadChunkBox(id int64, lo, hi []int64, dst []byte) (data []byte, decoded int64, partial bool, err error)
}

// TableProvider is a source whose format has metadata tables of its own,
// beside the tables every format gets (Tensogram's tgm_messages and
// tgm_objects). The SQL layer creates one table per entry, named Name in
// the file's schema.
type TableProvider interface {
	Tables() []Table
}

// Table is one format-specific metadata table.
type Table struct {
	// Name is the table's name; it must not clash with the tables every
	// format gets (the SQL layer refuses it then).
	Name string
	// Columns are the column names and their declared SQL types
	// ("INTEGER", "REAL", "TEXT", "BLOB").
	Columns []Column
	// Rows calls yield with each row, one value per column: nil, int64,
	// float64, string or []byte; it stops when yield returns false and
	// returns the first error met while producing rows. The row and its
	// []byte values belong to the format: copy what you keep.
	Rows func(yield func(row []any) bool) error
}

// Column is a column of a Table.
type Column struct {
	Name, Type string
}
