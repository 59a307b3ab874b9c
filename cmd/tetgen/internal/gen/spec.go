package gen

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/tetcore"
)

// maxChunkBytes is the largest chunk tetgen writes: tetcore readers refuse
// larger chunks by default (tetcore.DefaultMaxChunkBytes).
const maxChunkBytes = tetcore.DefaultMaxChunkBytes

// Dataset is one dataset to generate.
type Dataset struct {
	Name  string
	DType tetcore.DType
	Shape []int64
	Chunk []int64
	Codec tetcore.Codec
	Dims  []string // nil: unnamed (d0, d1, … at read time)

	Labels [][]string        // nil, or per axis nil / Shape[axis] labels
	Attrs  map[string]string // nil when empty

	// Data, when set, is the whole array row-major (little-endian) and is
	// written as is instead of a pattern. Used by presets; keep it small.
	Data []byte
}

// parseDataset parses NAME:DTYPE:SHAPE:CHUNK[:CODEC[:DIM,DIM,…]], with
// SHAPE and CHUNK written AxBxC, DTYPE one of f16 f32 f64 i16 i32 i64 u8
// u16 u32 u64 and CODEC raw (default) or zstd.
func parseDataset(s string) (Dataset, error) {
	var d Dataset
	bad := func(format string, args ...any) error {
		return fmt.Errorf("--dataset %q: %s (want NAME:DTYPE:SHAPE:CHUNK[:CODEC[:DIM,DIM,...]], e.g. grid:f32:4096x4096:256x256:zstd:y,x)",
			s, fmt.Sprintf(format, args...))
	}
	f := strings.Split(s, ":")
	if len(f) < 4 || len(f) > 6 {
		return d, bad("%d fields, want 4 to 6", len(f))
	}
	d.Name = f[0]
	if d.Name == "" {
		return d, bad("empty dataset name")
	}
	dt, err := parseDType(f[1])
	if err != nil {
		return d, bad("%v", err)
	}
	d.DType = dt
	if d.Shape, err = parseDims(f[2]); err != nil {
		return d, bad("shape: %v", err)
	}
	if d.Chunk, err = parseDims(f[3]); err != nil {
		return d, bad("chunk shape: %v", err)
	}
	if len(d.Chunk) != len(d.Shape) {
		return d, bad("chunk shape %s has rank %d but shape %s has rank %d", f[3], len(d.Chunk), f[2], len(d.Shape))
	}
	if len(f) > 4 {
		switch f[4] {
		case "", "raw":
			d.Codec = tetcore.CodecRaw
		case "zstd":
			d.Codec = tetcore.CodecZstd
		default:
			return d, bad("unknown codec %q (want raw or zstd)", f[4])
		}
	}
	if len(f) > 5 {
		d.Dims = strings.Split(f[5], ",")
		if len(d.Dims) != len(d.Shape) {
			return d, bad("%d dim names for rank %d", len(d.Dims), len(d.Shape))
		}
		seen := map[string]bool{}
		for _, n := range d.Dims {
			switch {
			case n == "":
				return d, bad("empty dim name")
			case seen[n]:
				return d, bad("dim name %q used twice", n)
			}
			seen[n] = true
		}
	}
	if err := d.checkSize(); err != nil {
		return d, bad("%v", err)
	}
	return d, nil
}

// parseDType maps f32, u8, … to a dtype.
func parseDType(s string) (tetcore.DType, error) {
	var names []string
	for _, d := range tetcore.AllDTypes {
		if d.String() == s {
			return d, nil
		}
		names = append(names, d.String())
	}
	return 0, fmt.Errorf("unknown dtype %q (want one of %s)", s, strings.Join(names, " "))
}

// parseDims parses AxBxC into positive sizes, rank 1..array.MaxRank.
func parseDims(s string) ([]int64, error) {
	if s == "" {
		return nil, fmt.Errorf("empty")
	}
	parts := strings.Split(s, "x")
	if len(parts) > array.MaxRank {
		return nil, fmt.Errorf("%q has rank %d, at most %d axes are allowed", s, len(parts), array.MaxRank)
	}
	out := make([]int64, len(parts))
	for i, p := range parts {
		v, err := strconv.ParseInt(p, 10, 64)
		switch {
		case err != nil:
			return nil, fmt.Errorf("%q: axis %d: %q is not a whole number (write sizes like 100x20)", s, i, p)
		case v <= 0:
			return nil, fmt.Errorf("%q: axis %d has size %d, sizes must be at least 1", s, i, v)
		}
		out[i] = v
	}
	return out, nil
}

// checkSize rejects arrays whose byte size overflows and chunks larger
// than readers accept.
func (d *Dataset) checkSize() error {
	size := int64(d.DType.Size())
	total, chunk := size, size
	for a := range d.Shape {
		var ok1, ok2 bool
		total, ok1 = mul(total, d.Shape[a])
		chunk, ok2 = mul(chunk, min(d.Chunk[a], d.Shape[a]))
		if !ok1 || !ok2 {
			return fmt.Errorf("shape %v is too large", d.Shape)
		}
	}
	if chunk > maxChunkBytes {
		return fmt.Errorf("a chunk of %v %s is %d bytes, more than the %d bytes readers accept", d.Chunk, d.DType, chunk, int64(maxChunkBytes))
	}
	return nil
}

func mul(a, b int64) (int64, bool) {
	if a != 0 && b > (1<<63-1)/a {
		return 0, false
	}
	return a * b, true
}

// elements is the number of elements of the array.
func (d *Dataset) elements() int64 {
	n := int64(1)
	for _, s := range d.Shape {
		n *= s
	}
	return n
}

// chunkCount is the number of chunks in the grid.
func (d *Dataset) chunkCount() int64 {
	n := int64(1)
	for a, s := range d.Shape {
		n *= (s + d.Chunk[a] - 1) / d.Chunk[a]
	}
	return n
}

// dimIndex returns the axis called name: one of Dims, or d0, d1, … when
// the dataset has no dim names. It returns -1 if there is none.
func (d *Dataset) dimIndex(name string) int {
	for a := range d.Shape {
		if d.dimName(a) == name {
			return a
		}
	}
	return -1
}

func (d *Dataset) dimName(a int) string {
	if d.Dims != nil {
		return d.Dims[a]
	}
	return "d" + strconv.Itoa(a)
}

func (d *Dataset) spec() tetcore.DatasetSpec {
	return tetcore.DatasetSpec{Name: d.Name, DType: d.DType, Shape: d.Shape, ChunkShape: d.Chunk,
		Codec: d.Codec, DimNames: d.Dims, Labels: d.Labels, Attrs: d.Attrs}
}
