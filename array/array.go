package array

// MaxRank is the most axes an array may have, for every format and every
// layer of tetsql: fixed-size per-axis arrays in the planner and the
// cursors are sized by it, and formats refuse arrays of higher rank.
const MaxRank = 8

// Format recognises and opens one on-disk format.
type Format interface {
	// Name is the format's short name, as tet_file.format shows it
	// ("tet", "b2nd", "tgm").
	Name() string
	// Sniff reports whether head, the first bytes of a file (up to
	// SniffLen, fewer for a shorter file), starts a file of this format.
	Sniff(head []byte) bool
	// Open opens the file at path. The path names a regular file already
	// checked by the caller; the format opens it read-only and never
	// writes to it.
	Open(path string, o Options) (Source, error)
}

// SniffLen is how many leading bytes of a file Format.Sniff is given.
const SniffLen = 512

// Options configure Format.Open.
type Options struct {
	// MaxChunkBytes bounds the decoded size of one chunk that the source
	// will ever decode (0 = the format's default). The engine opens each
	// file once and enforces the limit each table asks for itself, before
	// calling ReadChunk, so it passes the largest limit it allows.
	MaxChunkBytes int64
}

// Source is one opened file (or directory, for sparse frames). Its methods
// are safe for concurrent use.
type Source interface {
	// Arrays lists the file's arrays in the file's own order. The slice
	// and the arrays are owned by the source: do not modify them.
	Arrays() []Array
	// Attrs is the file-level attributes (nil when none); do not modify.
	Attrs() map[string]string
	// Close releases the source. Bytes handed out by ReadChunk that alias
	// the source (see ChunkInfo.InPlace) must not be used after it, unless
	// the source implements Pinner and a pin is held.
	Close() error
}

// Array is one N-dimensional dataset cut into a regular grid of chunks.
// Its methods are safe for concurrent use.
type Array interface {
	// Info describes the array; the same pointer on every call, never
	// modified after Open.
	Info() *Info
	// Chunk returns the index entry of the chunk at row-major grid
	// position id; ok is false for a position outside the grid or one
	// the file does not store (reading it fails with ErrMissingChunk).
	Chunk(id int64) (c ChunkInfo, ok bool)
	// ReadChunk returns the decoded elements of chunk id, little-endian,
	// row-major over the chunk's edge-trimmed extent (see
	// Info.ChunkBox). It decodes into dst when dst has the capacity, else
	// into a new buffer; the result may instead alias the source's
	// memory (ChunkInfo.InPlace). The caller must not modify the result.
	// dst may be a result of an earlier ReadChunk, in place or not: the
	// source never decodes into its own memory. Reading a chunk the
	// source has closed fails with ErrClosed.
	ReadChunk(id int64, dst []byte) ([]byte, error)
}

// ChunkInfo is one chunk's index entry.
type ChunkInfo struct {
	ID          int64  // row-major position in the chunk grid
	RawBytes    int64  // decoded size in bytes (elements of the edge-trimmed extent × element size)
	StoredBytes int64  // stored size in bytes
	Offset      int64  // byte offset of the stored bytes in the file, -1 when not one span
	Codec       string // how the chunk is stored: "raw", "zstd", "blosc2/lz4", …
	// DecodeBytes is the memory ReadChunk needs to decode the chunk when
	// that is more than RawBytes (a Blosc2 chunk is decoded with its
	// padding: every chunk holds whole blocks and a full chunk shape);
	// 0 means RawBytes. Chunk size limits apply to the larger of the two.
	DecodeBytes int64
	// InPlace reports that ReadChunk returns a view of the source's
	// mapped memory rather than decoding: reading it is free, caching it
	// is pointless, and reads of it must run under the source's Guarder
	// (when it has one) so that a file truncated under a scan gives an
	// error instead of a fault.
	InPlace bool
}
