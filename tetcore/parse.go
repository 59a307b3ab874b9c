package tetcore

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"

	"github.com/tetsql/tetsql/internal/mapfile"
)

var le = binary.LittleEndian

// Parse validates and indexes a whole .tet file held in data. The File
// refers to data without copying it; data must stay unchanged while the
// File is in use.
func Parse(data []byte, opts ...Option) (*File, error) {
	return parse(mapfile.FromBytes(data), opts)
}

// parse validates and indexes the bytes of mf, a mapping (Open) or the
// caller's bytes (Parse).
func parse(mf *mapfile.File, opts []Option) (*File, error) {
	o, err := buildOptions(opts)
	if err != nil {
		return nil, err
	}
	data := mf.Data()
	f := &File{mf: mf, data: data, opts: o, byName: map[string]*Dataset{}}
	if err := f.parseSuperblock(); err != nil {
		return nil, err
	}
	f.payloadEnd = uint64(len(data))
	if f.HasFooter() {
		f.parseFooter() // never fatal: damage is recorded in footerStatus
	} else {
		f.footerStatus = "absent"
	}
	count := le.Uint32(data[8:])
	if count == 0 {
		if f.indexOffset != superblockSize || f.indexLength != 0 {
			return nil, corrupt("superblock", "chunk_index_offset/length must be 32/0 in an empty container, got %d/%d", f.indexOffset, f.indexLength)
		}
		f.applyMetadata()
		if err := f.buildArrays(); err != nil {
			return nil, err
		}
		return f, nil
	}
	if err := f.parseDirectory(count); err != nil {
		return nil, err
	}
	if err := f.parseIndex(); err != nil {
		return nil, err
	}
	f.applyMetadata()
	if err := f.buildArrays(); err != nil {
		return nil, err
	}
	return f, nil
}

func corrupt(where, format string, args ...any) error {
	return fmt.Errorf("tetcore: %s: %s: %w", where, fmt.Sprintf(format, args...), ErrCorrupt)
}

func (f *File) parseSuperblock() error {
	d := f.data
	if len(d) < superblockSize {
		return fmt.Errorf("tetcore: superblock: file is %d bytes, need %d: %w", len(d), superblockSize, ErrTruncated)
	}
	if string(d[0:4]) != magicSuperblock {
		return fmt.Errorf("tetcore: superblock: magic %q, want %q: %w", d[0:4], magicSuperblock, ErrBadMagic)
	}
	f.LayoutVersion = le.Uint32(d[4:])
	if f.LayoutVersion != 1 {
		return fmt.Errorf("tetcore: superblock: layout_version %d (this reader knows 1): %w", f.LayoutVersion, ErrUnsupported)
	}
	f.flags = le.Uint32(d[12:])
	if f.flags&^flagFooter != 0 {
		return fmt.Errorf("tetcore: superblock: unknown flags %#x: %w", f.flags&^flagFooter, ErrUnsupported)
	}
	f.indexOffset = le.Uint64(d[16:])
	f.indexLength = le.Uint64(d[24:])
	end, ok := addOK(f.indexOffset, f.indexLength)
	if !ok || end > uint64(len(d)) {
		return fmt.Errorf("tetcore: superblock: chunk index [%d, +%d) ends past end of file (%d bytes): %w", f.indexOffset, f.indexLength, len(d), ErrTruncated)
	}
	return nil
}

// parseDirectory reads count dataset records at offset 32.
func (f *File) parseDirectory(count uint32) error {
	d := f.data
	if len(d) < 40 {
		return fmt.Errorf("tetcore: dataset directory: missing dataset_blob_len: %w", ErrTruncated)
	}
	blobLen := le.Uint64(d[32:])
	if blobLen > uint64(len(d))-40 {
		return fmt.Errorf("tetcore: dataset directory: dataset_blob_len %d exceeds file size %d: %w", blobLen, len(d), ErrTruncated)
	}
	// Each record takes at least 16 header + 16 shape bytes.
	if uint64(count) > blobLen/32 {
		return corrupt("dataset directory", "dataset_count %d cannot fit in %d bytes", count, blobLen)
	}
	blob := d[40 : 40+blobLen]
	f.Datasets = make([]*Dataset, 0, count)
	pos := uint64(0)
	for i := 0; i < int(count); i++ {
		ds, n, err := parseRecord(blob[pos:], i)
		if err != nil {
			return err
		}
		pos += n
		if _, dup := f.byName[ds.Name]; dup {
			return corrupt(fmt.Sprintf("dataset %d", i), "duplicate name %q", ds.Name)
		}
		f.byName[ds.Name] = ds
		f.Datasets = append(f.Datasets, ds)
	}
	if pos != blobLen {
		return corrupt("dataset directory", "records use %d bytes, dataset_blob_len is %d", pos, blobLen)
	}
	want := align8(40 + blobLen)
	if f.indexOffset != want {
		return corrupt("superblock", "chunk_index_offset %d, want align8(40+%d) = %d", f.indexOffset, blobLen, want)
	}
	for _, b := range d[40+blobLen : want] {
		if b != 0 {
			return corrupt("dataset directory", "non-zero padding before chunk index")
		}
	}
	return nil
}

// parseRecord parses one dataset record from the start of b and returns
// it with the number of bytes it used.
func parseRecord(b []byte, id int) (*Dataset, uint64, error) {
	where := fmt.Sprintf("dataset %d", id)
	if len(b) < 16 {
		return nil, 0, fmt.Errorf("tetcore: %s: record header: %w", where, ErrTruncated)
	}
	nameLen := uint64(le.Uint32(b[0:]))
	dt := DType(le.Uint32(b[4:]))
	ndim := le.Uint32(b[8:])
	if r := le.Uint32(b[12:]); r != 0 {
		return nil, 0, corrupt(where, "reserved field is %d, want 0", r)
	}
	if ndim < 1 || ndim > maxRank {
		return nil, 0, corrupt(where, "ndim %d outside 1..8", ndim)
	}
	shapeAt := align8(16 + nameLen)
	total := shapeAt + 16*uint64(ndim)
	if total > uint64(len(b)) {
		return nil, 0, fmt.Errorf("tetcore: %s: record of %d bytes overruns the directory: %w", where, total, ErrTruncated)
	}
	name := string(b[16 : 16+nameLen])
	where = fmt.Sprintf("dataset %q", name)
	if !dt.Valid() {
		return nil, 0, corrupt(where, "dtype tag %d outside 1..10", uint32(dt))
	}
	for _, p := range b[16+nameLen : shapeAt] {
		if p != 0 {
			return nil, 0, corrupt(where, "non-zero name padding")
		}
	}
	ds := &Dataset{ID: id, Name: name, DType: dt,
		Shape: make([]int64, ndim), ChunkShape: make([]int64, ndim), Grid: make([]int64, ndim)}
	ds.elements, ds.gridCount = 1, 1
	for a := 0; a < int(ndim); a++ {
		s := le.Uint64(b[shapeAt+8*uint64(a):])
		c := le.Uint64(b[shapeAt+8*uint64(ndim+uint32(a)):])
		if s > math.MaxInt64 {
			return nil, 0, corrupt(where, "shape[%d] = %d too large", a, s)
		}
		if c < 1 || c > math.MaxInt64 {
			return nil, 0, corrupt(where, "chunk_shape[%d] = %d, want ≥ 1", a, c)
		}
		ds.Shape[a], ds.ChunkShape[a] = int64(s), int64(c)
		ds.Grid[a] = int64(s/c) + btoi(s%c != 0)
		var ok1, ok2 bool
		ds.elements, ok1 = mulOK(ds.elements, ds.Shape[a])
		ds.gridCount, ok2 = mulOK(ds.gridCount, ds.Grid[a])
		if !ok1 || !ok2 {
			return nil, 0, corrupt(where, "shape %v overflows", ds.Shape[:a+1])
		}
	}
	if _, ok := mulOK(ds.elements, int64(dt.Size())); !ok {
		return nil, 0, corrupt(where, "byte size of shape overflows")
	}
	return ds, total, nil
}

func btoi(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// parseIndex reads the chunk index header and every entry.
func (f *File) parseIndex() error {
	d := f.data
	off := f.indexOffset
	if f.indexLength < indexHeaderSize {
		return fmt.Errorf("tetcore: chunk index: length %d shorter than its header: %w", f.indexLength, ErrCorrupt)
	}
	h := d[off : off+indexHeaderSize]
	if string(h[0:4]) != magicIndex {
		return fmt.Errorf("tetcore: chunk index: magic %q, want %q: %w", h[0:4], magicIndex, ErrBadMagic)
	}
	if v := le.Uint32(h[4:]); v != 1 {
		return fmt.Errorf("tetcore: chunk index: index_version %d: %w", v, ErrUnsupported)
	}
	n := le.Uint64(h[8:])
	if n > (f.indexLength-indexHeaderSize)/indexEntrySize || indexHeaderSize+n*indexEntrySize != f.indexLength {
		return corrupt("chunk index", "entry_count %d does not match chunk_index_length %d", n, f.indexLength)
	}
	f.MemoryBudgetBPS = le.Uint16(h[16:])
	f.MemoryBudgetBytes = le.Uint32(h[20:])
	if le.Uint16(h[18:]) != 0 || le.Uint64(h[24:]) != 0 {
		return corrupt("chunk index", "reserved header fields are not zero")
	}
	if f.MemoryBudgetBPS > 10000 {
		return corrupt("chunk index", "memory_budget_percent_bps %d above 10000", f.MemoryBudgetBPS)
	}
	indexEnd := off + f.indexLength
	if indexEnd > f.payloadEnd {
		return corrupt("chunk index", "ends at %d, inside the footer (starts at %d)", indexEnd, f.payloadEnd)
	}
	counts := make([]int, len(f.Datasets))
	for i := uint64(0); i < n; i++ {
		id := le.Uint64(d[off+indexHeaderSize+i*indexEntrySize:])
		if id >= uint64(len(f.Datasets)) {
			return corrupt(fmt.Sprintf("chunk index entry %d", i), "dataset_id %d, file has %d datasets", id, len(f.Datasets))
		}
		counts[id]++
	}
	for i, ds := range f.Datasets {
		if int64(counts[i]) > ds.gridCount {
			return corrupt(fmt.Sprintf("dataset %q", ds.Name), "%d index entries for a grid of %d chunks", counts[i], ds.gridCount)
		}
		ds.chunks = make([]Chunk, 0, counts[i])
	}
	for i := uint64(0); i < n; i++ {
		if err := f.parseEntry(d[off+indexHeaderSize+i*indexEntrySize:][:indexEntrySize], int(i), indexEnd); err != nil {
			return err
		}
	}
	for _, ds := range f.Datasets {
		if err := ds.sortChunks(); err != nil {
			return err
		}
	}
	return nil
}

func (f *File) parseEntry(e []byte, i int, indexEnd uint64) error {
	ds := f.Datasets[le.Uint64(e)]
	c := Chunk{entry: i}
	rank := ds.Rank()
	for a := 0; a < maxRank; a++ {
		v := le.Uint64(e[8+8*a:])
		if a >= rank {
			if v != 0 {
				return corrupt(fmt.Sprintf("dataset %q chunk index entry %d", ds.Name, i), "chunk_index[%d] = %d beyond rank %d", a, v, rank)
			}
			continue
		}
		if v >= uint64(ds.Grid[a]) {
			return corrupt(fmt.Sprintf("dataset %q chunk index entry %d", ds.Name, i), "chunk_index[%d] = %d outside grid %v", a, v, ds.Grid)
		}
		c.Coords[a] = int64(v)
	}
	// Errors go through entryErr, which takes copies: formatting on the
	// success path cost 7 allocations per entry (48 ms for 100k entries).
	c.Linear = ds.LinearChunk(c.Coords[:rank])
	c.Offset = le.Uint64(e[72:])
	raw, stored := le.Uint64(e[80:]), le.Uint64(e[88:])
	c.Codec = Codec(le.Uint32(e[96:]))
	if r := le.Uint32(e[100:]); r != 0 {
		return entryErr(ds.Name, c.Coords, rank, ErrCorrupt, "reserved field is %d, want 0", r)
	}
	var start, extent [maxRank]int64
	elems := ds.ChunkStart(c.Coords[:rank], start[:rank], extent[:rank])
	want := elems * int64(ds.DType.Size()) // cannot overflow: ≤ dataset byte size
	if raw != uint64(want) {
		ext := extent
		return entryErr(ds.Name, c.Coords, rank, ErrCorrupt, "raw_byte_len %d, want %d (extent %v × %d bytes)", raw, want, ext[:rank], ds.DType.Size())
	}
	c.RawLen = want
	switch c.Codec {
	case CodecRaw:
		if stored != raw {
			return entryErr(ds.Name, c.Coords, rank, ErrCorrupt, "raw chunk with stored_byte_len %d != raw_byte_len %d", stored, raw)
		}
	case CodecZstd:
		// One zstd block (≥ 4 bytes with its header) decodes to at most
		// 128 KiB, so a frame cannot expand more than this.
		if stored < 9 || raw/131072 > stored/4+1 {
			return entryErr(ds.Name, c.Coords, rank, ErrCorrupt, "zstd chunk of %d stored bytes cannot decode to %d bytes", stored, raw)
		}
	default:
		return entryErr(ds.Name, c.Coords, rank, ErrUnsupported, "codec %d", uint32(c.Codec))
	}
	c.StoredLen = int64(stored)
	end, ok := addOK(c.Offset, stored)
	if ok && c.Offset >= indexEnd && end > uint64(len(f.data)) {
		return entryErr(ds.Name, c.Coords, rank, ErrTruncated, "payload [%d, +%d) ends past end of file (%d bytes)", c.Offset, stored, len(f.data))
	}
	if !ok || c.Offset < indexEnd || end > f.payloadEnd {
		return entryErr(ds.Name, c.Coords, rank, ErrCorrupt, "payload [%d, +%d) outside the payload region [%d, %d)", c.Offset, stored, indexEnd, f.payloadEnd)
	}
	ds.chunks = append(ds.chunks, c)
	ds.rawBytes += c.RawLen
	ds.storedByte += c.StoredLen
	return nil
}

// entryErr formats an error about the index entry of dataset name at
// grid coordinates coords[:rank].
func entryErr(name string, coords [maxRank]int64, rank int, sentinel error, format string, args ...any) error {
	return fmt.Errorf("tetcore: dataset %q chunk %v: %s: %w", name, coords[:rank], fmt.Sprintf(format, args...), sentinel)
}

// sortChunks orders entries by grid position and rejects duplicates.
func (ds *Dataset) sortChunks() error {
	cs := ds.chunks
	if !sort.SliceIsSorted(cs, func(i, j int) bool { return cs[i].Linear < cs[j].Linear }) {
		sort.Slice(cs, func(i, j int) bool { return cs[i].Linear < cs[j].Linear })
	}
	for i := 1; i < len(cs); i++ {
		if cs[i].Linear == cs[i-1].Linear {
			return corrupt(fmt.Sprintf("dataset %q chunk %v", ds.Name, cs[i].Coords[:ds.Rank()]), "appears twice in the chunk index (entries %d and %d)", cs[i-1].entry, cs[i].entry)
		}
	}
	ds.dense = int64(len(cs)) == ds.gridCount
	return nil
}
