package scan

import (
	"fmt"

	"github.com/tetsql/tetsql/array"
)

// DefaultMaxChunkBytes is the chunk size limit of a session that sets
// none (Session.MaxChunkBytes): the largest decoded chunk a table reads.
// A compressed chunk of a few KB can legitimately declare this much
// (runs of one byte compress to almost nothing), so it bounds what one
// small hostile file can make a query allocate.
const DefaultMaxChunkBytes = 256 << 20

// Reader is the one way the engine reads a chunk, for cells scans, their
// read-ahead workers and aggregate folds alike: the table's limit on a
// chunk's decoded size, then the source's decoded-chunk cache (which,
// once full, admits a chunk on its second read), then
// array.Array.ReadChunk. A Reader is a small value; copies may be used
// on different goroutines.
type Reader struct {
	a     *Array
	table string // schema-qualified, for errors
	limit int64
}

// NewReader reads chunks of a for table, refusing (array.ErrTooLarge)
// any chunk that decodes to more than maxChunkBytes (0 =
// DefaultMaxChunkBytes). In-place chunks cost no memory and are not
// limited.
func NewReader(a *Array, table string, maxChunkBytes int64) Reader {
	if maxChunkBytes <= 0 {
		maxChunkBytes = DefaultMaxChunkBytes
	}
	return Reader{a: a, table: table, limit: maxChunkBytes}
}

// Array is the array the reader reads.
func (r *Reader) Array() *Array { return r.a }

// Table is the schema-qualified table the reader reads for.
func (r *Reader) Table() string { return r.table }

// Chunk is one chunk as read.
type Chunk struct {
	Info array.ChunkInfo
	// Data is the decoded elements; when Info.InPlace, a view of the
	// source's memory, to be read under Source.Guard or Source.Copy.
	Data []byte
	// Hit reports that the cache served the chunk (nothing decoded).
	Hit bool
	// Reusable reports that Data is the reader's own buffer (neither
	// cached nor in place): it may be passed back to Read to decode the
	// next chunk into.
	Reusable bool
	// Partial reports a chunk read by ReadBox whose elements outside the
	// box are undefined, and Decoded how many bytes that read decoded.
	Partial bool
	Decoded int64
}

// Read reads chunk id, decoding into buf when it has the capacity. The
// error names the table, the array and the chunk.
func (r *Reader) Read(id int64, buf []byte) (Chunk, error) {
	a := r.a
	c, err := r.entry(id)
	if err != nil {
		return c, err
	}
	ci := c.Info
	cc := a.src.cache.Load()
	if cc == nil || ci.InPlace || !cc.fits(ci.RawBytes) {
		data, err := a.ReadChunk(id, buf)
		if err != nil {
			return c, fmt.Errorf("tet: %s: %w", r.table, err)
		}
		c.Data, c.Reusable = data, !ci.InPlace
		return c, nil
	}
	k := cacheKey{a, id}
	if data, ok := cc.get(k); ok {
		c.Data, c.Hit = data, true
		return c, nil
	}
	if !cc.admit(k, ci.RawBytes) { // a first read: not kept, so the caller's buffer serves
		data, err := a.ReadChunk(id, buf)
		if err != nil {
			return c, fmt.Errorf("tet: %s: %w", r.table, err)
		}
		c.Data, c.Reusable = data, true
		return c, nil
	}
	data, err := a.ReadChunk(id, nil) // a buffer of its own: the cache keeps it
	if err != nil {
		return c, fmt.Errorf("tet: %s: %w", r.table, err)
	}
	cc.put(k, data)
	c.Data = data
	return c, nil
}

// ReadBox reads the elements of chunk id inside the chunk-local box
// [lo, hi): from the cache when it holds the chunk, else through the
// format's array.BoxReader, which may decode only the parts of the chunk
// the box touches (Chunk.Partial: the other elements are undefined, so
// such a chunk is never cached or summarised). A format without it reads
// the whole chunk, as Read.
func (r *Reader) ReadBox(id int64, lo, hi []int64, buf []byte) (Chunk, error) {
	a := r.a
	br, ok := a.Array.(array.BoxReader)
	if !ok {
		return r.Read(id, buf)
	}
	c, err := r.entry(id)
	if err != nil {
		return c, err
	}
	ci := c.Info
	if ci.InPlace || wholeBox(a, id, lo, hi) {
		return r.Read(id, buf) // nothing to save: the cache may serve or keep it
	}
	if cc := a.src.cache.Load(); cc != nil && !ci.InPlace && cc.fits(ci.RawBytes) {
		if data, ok := cc.get(cacheKey{a, id}); ok {
			c.Data, c.Hit = data, true
			return c, nil
		}
	}
	data, decoded, partial, err := br.ReadChunkBox(id, lo, hi, buf)
	if err != nil {
		return c, fmt.Errorf("tet: %s: %w", r.table, err)
	}
	c.Data, c.Reusable, c.Partial, c.Decoded = data, true, partial, decoded
	return c, nil
}

// wholeBox reports whether the chunk-local box [lo, hi) is all of chunk
// id.
func wholeBox(a *Array, id int64, lo, hi []int64) bool {
	in := a.Info()
	var start, extent [array.MaxRank]int64
	r := in.Rank()
	in.ChunkBox(id, start[:r], extent[:r])
	for d := range r {
		if lo[d] > 0 || hi[d] < extent[d] {
			return false
		}
	}
	return true
}

// entry looks chunk id up and checks it against the table's limit.
func (r *Reader) entry(id int64) (Chunk, error) {
	ci, ok := r.a.Chunk(id)
	if !ok {
		return Chunk{}, r.errorf(id, "%w", array.ErrMissingChunk)
	}
	c := Chunk{Info: ci}
	if need := max(ci.RawBytes, ci.DecodeBytes); !ci.InPlace && need > r.limit {
		return c, r.errorf(id, "%d bytes: %w (%d bytes at most: raise max_chunk_bytes)", need, array.ErrTooLarge, r.limit)
	}
	return c, nil
}

// errorf is an error about chunk id: "tet: TABLE: dataset "A" chunk
// [COORDS]: …".
func (r *Reader) errorf(id int64, format string, args ...any) error {
	in := r.a.Info()
	coords := make([]int64, in.Rank())
	if id >= 0 && id < in.ChunkCount() {
		in.ChunkCoords(id, coords)
	}
	return fmt.Errorf("tet: %s: dataset %q chunk %v: "+format, append([]any{r.table, in.Name, coords}, args...)...)
}

// Count adds one chunk read to the counters: every chunk counts its
// stored bytes as read; a decoded one its decoded bytes; a cached one a
// cache hit.
func (s *ScanStats) Count(c *Chunk) {
	s.ChunksDecoded++
	s.BytesRead += c.Info.StoredBytes
	switch {
	case c.Hit:
		s.CacheHits++
	case c.Partial:
		s.BytesDecoded += c.Decoded
	case !c.Info.InPlace:
		s.BytesDecoded += c.Info.RawBytes
	}
}

// Add adds the counters of o (a worker's) to s.
func (s *ScanStats) Add(o *ScanStats) {
	s.ChunksDecoded += o.ChunksDecoded
	s.ChunksSkipped += o.ChunksSkipped
	s.CacheHits += o.CacheHits
	s.BytesRead += o.BytesRead
	s.BytesDecoded += o.BytesDecoded
}
