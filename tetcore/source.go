package tetcore

import (
	"fmt"

	"github.com/tetsql/tetsql/array"
)

// Format is the .tet format as an array.Format: name "tet", recognised by
// the superblock magic TETR, opened with Open.
var Format array.Format = tetFormat{}

// The File is a Source with every optional capability; these fail to
// compile if a method drifts from the array package's interfaces.
var (
	_ array.Source        = (*File)(nil)
	_ array.Pinner        = (*File)(nil)
	_ array.Guarder       = (*File)(nil)
	_ array.ChangeChecker = (*File)(nil)
	_ array.Evicter       = (*File)(nil)
	_ array.Historian     = (*File)(nil)
	_ array.Describer     = (*File)(nil)
	_ array.Verifier      = (*File)(nil)
	_ array.Array         = (*dsArray)(nil)
	_ array.ChunkLister   = (*dsArray)(nil)
	_ array.ZoneMapper    = (*dsArray)(nil)
)

type tetFormat struct{}

func (tetFormat) Name() string { return "tet" }

func (tetFormat) Sniff(head []byte) bool {
	return len(head) >= len(magicSuperblock) && string(head[:len(magicSuperblock)]) == magicSuperblock
}

func (tetFormat) Open(path string, o array.Options) (array.Source, error) {
	var opts []Option
	if o.MaxChunkBytes > 0 {
		opts = append(opts, WithMaxChunkBytes(o.MaxChunkBytes))
	}
	f, err := Open(path, opts...)
	if err != nil {
		return nil, err // not f: a nil *File in an interface is not nil
	}
	return f, nil
}

// dsArray is a Dataset seen as an array.Array. Dataset has a Chunk method
// of its own (returning *Chunk), so the adapter is a separate type, made
// once per dataset at parse time so that Arrays allocates nothing.
type dsArray struct {
	f    *File
	ds   *Dataset
	info array.Info
}

// buildArrays makes the adapters once the directory and the footer
// metadata are final.
func (f *File) buildArrays() error {
	f.arrays = make([]array.Array, len(f.Datasets))
	for i, ds := range f.Datasets {
		a := &dsArray{f: f, ds: ds, info: array.Info{
			Name: ds.Name, DType: ds.DType.Array(), Shape: ds.Shape, ChunkShape: ds.ChunkShape,
			DimNames: ds.DimNames, Labels: ds.Labels, Attrs: ds.Attrs,
		}}
		if err := a.info.Validate(); err != nil {
			return fmt.Errorf("tetcore: dataset %q: %w", ds.Name, err)
		}
		f.arrays[i] = a
	}
	return nil
}

func (a *dsArray) Info() *array.Info { return &a.info }

func (a *dsArray) Chunk(id int64) (array.ChunkInfo, bool) {
	c, ok := a.ds.Chunk(id)
	if !ok {
		return array.ChunkInfo{}, false
	}
	return chunkInfo(c), true
}

func chunkInfo(c *Chunk) array.ChunkInfo {
	return array.ChunkInfo{
		ID: c.Linear, RawBytes: c.RawLen, StoredBytes: c.StoredLen, Offset: int64(c.Offset),
		Codec: c.Codec.String(), InPlace: c.Codec == CodecRaw,
	}
}

// StoredChunks lists the chunks the file stores, in id order, from the
// index: a sparse grid may declare far more positions than it stores, and
// the engine's listings (tet_chunks, the byte totals of tet_datasets)
// must not walk them all (it finds this method by type assertion).
func (a *dsArray) StoredChunks(yield func(array.ChunkInfo) bool) {
	cs := a.ds.Chunks()
	for i := range cs {
		if !yield(chunkInfo(&cs[i])) {
			return
		}
	}
}

func (a *dsArray) ReadChunk(id int64, dst []byte) ([]byte, error) {
	return a.f.ReadChunkAt(a.ds, id, dst)
}

// Arrays returns the datasets as array.Arrays, in directory order. The
// slice is shared: do not modify it.
func (f *File) Arrays() []array.Array { return f.arrays }

// Attrs is the footer's file metadata (metadata.file; non-string values
// as JSON text), nil when there is none.
func (f *File) Attrs() map[string]string { return f.Footer.FileMeta }

// History returns the footer's provenance rows as array.History.
func (f *File) History() []array.History {
	if len(f.Footer.History) == 0 {
		return nil
	}
	out := make([]array.History, len(f.Footer.History))
	for i, h := range f.Footer.History {
		out[i] = array.History{Op: h.Op, Source: h.Source, At: h.At, Parents: h.Parents, Params: h.Params}
	}
	return out
}

// Describe says what the file metadata table shows about a .tet file.
func (f *File) Describe() array.Description {
	return array.Description{
		Format:            "tet",
		Size:              f.Size(),
		LayoutVersion:     int64(f.LayoutVersion),
		Footer:            f.footerStatus,
		MemoryBudgetBPS:   int64(f.MemoryBudgetBPS),
		MemoryBudgetBytes: int64(f.MemoryBudgetBytes),
	}
}

// Verify is VerifyReport as array.Verifier: deep selects VerifyDeep, and
// the findings name datasets as arrays.
func (f *File) Verify(deep bool, maxChunkBytes int64) ([]array.Finding, error) {
	mode := VerifyQuick
	if deep {
		mode = VerifyDeep
	}
	r, err := f.VerifyReportLimit(mode, maxChunkBytes)
	if err != nil {
		return nil, err
	}
	out := make([]array.Finding, len(r.Findings))
	for i, x := range r.Findings {
		out[i] = array.Finding{Severity: x.Severity, Array: x.Dataset, Chunk: x.Chunk, Message: x.Message}
	}
	return out, nil
}
