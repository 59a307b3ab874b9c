package tetcore

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// maxInlineFooter is the largest footer JSON the writer keeps inline;
// larger metadata is spilled and referenced through metadata_ref.
const maxInlineFooter = 64 << 10

// DatasetSpec declares a dataset for a Writer.
type DatasetSpec struct {
	Name       string
	DType      DType
	Shape      []int64
	ChunkShape []int64
	Codec      Codec // default codec of its chunks

	DimNames []string          // optional, one per axis
	Labels   [][]string        // optional; per axis nil or Shape[axis] labels
	Attrs    map[string]string // optional
}

// Writer writes a .tet file in the reference layout: superblock,
// directory, chunk index, payloads back to back in index order, footer.
// Datasets are declared first; chunks then arrive one at a time in index
// order (dataset order, then grid row-major order), see NextChunk.
// Nothing appears at the destination path until Close succeeds.
type Writer struct {
	path, tmp string
	fh        *os.File
	bw        *bufio.Writer
	datasets  []*Dataset
	specs     []DatasetSpec
	history   []HistoryRow
	fileMeta  map[string]string
	bps       uint16
	budget    uint32
	footer    bool

	started   bool
	pos       uint64 // next payload offset
	indexOff  uint64
	entries   []Chunk
	entryDS   []int
	cur       int   // dataset of the next chunk
	curLinear int64 // linear id of the next chunk in cur
	coords    []int64
	scratch   []byte
	err       error
}

// Create starts a file that will be renamed to path by Close.
func Create(path string) (*Writer, error) {
	fh, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("tetcore: create: %w", err)
	}
	return &Writer{path: path, tmp: fh.Name(), fh: fh, bw: bufio.NewWriterSize(fh, 1<<20)}, nil
}

// AddDataset declares a dataset; it must precede the first chunk.
func (w *Writer) AddDataset(s DatasetSpec) error {
	if w.started {
		return errors.New("tetcore: AddDataset after the first chunk")
	}
	for _, o := range w.specs {
		if o.Name == s.Name {
			return fmt.Errorf("tetcore: dataset %q declared twice", s.Name)
		}
	}
	ds, err := validateSpec(s, len(w.specs))
	if err != nil {
		return err
	}
	w.specs = append(w.specs, s)
	w.datasets = append(w.datasets, ds)
	return nil
}

func validateSpec(s DatasetSpec, id int) (*Dataset, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("tetcore: dataset %q: %s", s.Name, fmt.Sprintf(format, args...))
	}
	r := len(s.Shape)
	switch {
	case s.Name == "":
		return nil, bad("empty name")
	case r < 1 || r > maxRank:
		return nil, bad("rank %d outside 1..8", r)
	case len(s.ChunkShape) != r:
		return nil, bad("chunk shape %v does not match shape %v", s.ChunkShape, s.Shape)
	case !s.DType.Valid():
		return nil, bad("invalid dtype %d", uint32(s.DType))
	case s.Codec != CodecRaw && s.Codec != CodecZstd:
		return nil, bad("invalid codec %d", uint32(s.Codec))
	case s.DimNames != nil && len(s.DimNames) != r:
		return nil, bad("%d dim names for rank %d", len(s.DimNames), r)
	case s.Labels != nil && len(s.Labels) != r:
		return nil, bad("labels for %d axes, rank %d", len(s.Labels), r)
	}
	ds := &Dataset{ID: id, Name: s.Name, DType: s.DType, Shape: s.Shape, ChunkShape: s.ChunkShape,
		Grid: make([]int64, r), elements: 1, gridCount: 1, DimNames: s.DimNames, Labels: s.Labels, Attrs: s.Attrs}
	for a := 0; a < r; a++ {
		if s.Shape[a] < 0 || s.ChunkShape[a] < 1 {
			return nil, bad("shape %v / chunk shape %v out of range", s.Shape, s.ChunkShape)
		}
		if s.Labels != nil && s.Labels[a] != nil && int64(len(s.Labels[a])) != s.Shape[a] {
			return nil, bad("axis %d has %d labels for size %d", a, len(s.Labels[a]), s.Shape[a])
		}
		ds.Grid[a] = (s.Shape[a] + s.ChunkShape[a] - 1) / s.ChunkShape[a]
		var ok1, ok2 bool
		ds.elements, ok1 = mulOK(ds.elements, s.Shape[a])
		ds.gridCount, ok2 = mulOK(ds.gridCount, ds.Grid[a])
		if !ok1 || !ok2 {
			return nil, bad("shape %v overflows", s.Shape)
		}
	}
	if _, ok := mulOK(ds.elements, int64(s.DType.Size())); !ok {
		return nil, bad("byte size overflows")
	}
	return ds, nil
}

// SetHistory sets the footer's provenance rows.
func (w *Writer) SetHistory(rows []HistoryRow) { w.history = rows }

// SetFileMeta sets metadata.file (tool, library_version, created_at, …).
func (w *Writer) SetFileMeta(m map[string]string) { w.fileMeta = m }

// SetMemoryBudget sets the chunk index's memory-budget hint fields.
func (w *Writer) SetMemoryBudget(bps uint16, bytes uint32) { w.bps, w.budget = bps, bytes }

// ForceFooter writes a footer even when there is no metadata.
func (w *Writer) ForceFooter() { w.footer = true }

// NextChunk reports which chunk WriteChunk expects next: its dataset
// index and grid coordinates (valid until the next call), with the
// chunk's global start and edge-trimmed extent. ok is false when every
// chunk has been written.
func (w *Writer) NextChunk() (dataset int, coords, start, extent []int64, ok bool) {
	w.skipEmpty()
	if w.cur >= len(w.datasets) {
		return 0, nil, nil, nil, false
	}
	ds := w.datasets[w.cur]
	r := ds.Rank()
	coords = make([]int64, r)
	start, extent = make([]int64, r), make([]int64, r)
	ds.ChunkCoords(w.curLinear, coords)
	ds.ChunkStart(coords, start, extent)
	return w.cur, coords, start, extent, true
}

func (w *Writer) skipEmpty() {
	for w.cur < len(w.datasets) && w.curLinear >= w.datasets[w.cur].gridCount {
		w.cur++
		w.curLinear = 0
	}
}
