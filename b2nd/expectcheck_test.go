package b2nd

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/array"
)

// checkExpected opens dir/fx.File with Format and holds it to its record:
// a refusal for files that must be refused, else the metadata, every value
// and the aggregates. It reports whether the file opened and its values
// were compared (false for a refusal, expected or tolerated).
func checkExpected(t *testing.T, dir string, fx expectedFile) bool {
	t.Helper()
	src, err := Format.Open(filepath.Join(dir, fx.File), array.Options{})
	if fx.ExpectError != nil {
		if err == nil {
			src.Close()
			t.Errorf("Open succeeded; want ErrUnsupported naming %q", *fx.ExpectError)
		} else if !strings.Contains(err.Error(), *fx.ExpectError) || !errors.Is(err, array.ErrUnsupported) {
			t.Errorf("Open: %v; want ErrUnsupported naming %q", err, *fx.ExpectError)
		}
		return false
	}
	rank0 := len(fx.Shape) == 0
	if err != nil {
		if rank0 && errors.Is(err, array.ErrUnsupported) {
			t.Logf("rank 0: Open refuses the file (tolerated for now): %v", err)
			return false
		}
		t.Fatalf("Open: %v", err)
	}
	defer func() {
		if err := src.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	}()
	arrs := src.Arrays()
	if len(arrs) != 1 {
		t.Fatalf("%d arrays, want 1", len(arrs))
	}
	in := arrs[0].Info()
	if rank0 {
		t.Logf("rank 0: opens as shape %v, chunk shape %v", in.Shape, in.ChunkShape)
	}
	if !checkInfo(t, fx, in) {
		return false
	}
	full := assemble(t, src, arrs[0])
	checkValues(t, fx, in, full)
	return true
}

// checkInfo compares the array's Info with the record; it reports whether
// the geometry matches (the value checks rely on it).
func checkInfo(t *testing.T, fx expectedFile, in *array.Info) bool {
	t.Helper()
	if in.Name != fx.Dataset {
		t.Errorf("array name %q, want %q", in.Name, fx.Dataset)
	}
	if fx.DType == nil || in.DType.String() != *fx.DType {
		t.Errorf("dtype %v, want %v", in.DType, strOrNil(fx.DType))
	}
	geometryOK := true
	if len(fx.Shape) == 0 {
		// A 0-d array may open with no axes or as one element on one axis.
		if in.Elements() != 1 || in.ChunkCount() != 1 {
			t.Errorf("rank 0 opens as shape %v (%d elements, %d chunks), want one element", in.Shape, in.Elements(), in.ChunkCount())
			geometryOK = false
		}
		if in.Rank() == 0 && in.DimNames != nil {
			t.Errorf("rank 0: dim names %q", in.DimNames)
		}
	} else {
		if !reflect.DeepEqual(in.Shape, fx.Shape) {
			t.Errorf("shape %v, want %v", in.Shape, fx.Shape)
			geometryOK = false
		}
		if !reflect.DeepEqual(in.ChunkShape, fx.Chunks) {
			t.Errorf("chunk shape %v, want %v", in.ChunkShape, fx.Chunks)
			geometryOK = false
		}
		if !reflect.DeepEqual(in.DimNames, fx.DimNames) {
			t.Errorf("dim names %q, want %q", in.DimNames, fx.DimNames)
		}
		for a := range fx.Shape {
			want := "d" + strconv.Itoa(a)
			if fx.DimNames != nil {
				want = fx.DimNames[a]
			}
			if got := in.DimName(a); got != want {
				t.Errorf("DimName(%d) = %q, want %q", a, got, want)
			}
		}
	}
	checkAttrs(t, fx.Attrs, in.Attrs)
	return geometryOK
}

// checkAttrs: every attribute is JSON whose value equals the record's.
func checkAttrs(t *testing.T, want map[string]any, got map[string]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d attributes %q, want %d %v", len(got), got, len(want), want)
	}
	for k, w := range want {
		s, ok := got[k]
		if !ok {
			t.Errorf("attribute %q missing", k)
			continue
		}
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Errorf("attribute %q = %q: not JSON: %v", k, s, err)
		} else if !reflect.DeepEqual(v, w) {
			t.Errorf("attribute %q = %s, want %v", k, s, w)
		}
	}
}

// assemble reads every chunk and places it in a C-order copy of the
// whole array, checking each chunk's size against its box.
func assemble(t *testing.T, src array.Source, a array.Array) []byte {
	t.Helper()
	in := a.Info()
	size := int64(in.DType.Size())
	full := make([]byte, in.Elements()*size)
	r := in.Rank()
	start, extent := make([]int64, r), make([]int64, r)
	var scratch []byte
	for id := range in.ChunkCount() {
		n := in.ChunkBox(id, start, extent)
		if c, ok := a.Chunk(id); ok && (c.ID != id || c.RawBytes != n*size) {
			t.Errorf("Chunk(%d) = %+v; want ID %d, RawBytes %d", id, c, id, n*size)
		}
		b, err := a.ReadChunk(id, scratch[:0])
		if err != nil {
			t.Fatalf("ReadChunk(%d): %v", id, err)
		}
		if int64(len(b)) != n*size {
			t.Fatalf("ReadChunk(%d): %d bytes, want %d (box %v+%v)", id, len(b), n*size, start, extent)
		}
		place := func() { scatter(full, b, in.Shape, start, extent, size) }
		if g, ok := src.(array.Guarder); ok {
			if err := g.Guard(place); err != nil {
				t.Fatalf("chunk %d: %v", id, err)
			}
		} else {
			place()
		}
		if cap(b) > cap(scratch) {
			scratch = make([]byte, 0, cap(b))
		}
	}
	return full
}

// scatter copies a chunk's elements, row-major over its box, into full, the
// whole row-major array of the given shape: the inverse of
// array.ExtractChunk.
func scatter(full, chunk []byte, shape, start, extent []int64, size int64) {
	r := len(shape)
	if r == 0 { // a 0-d array: one element in one chunk
		copy(full, chunk[:size])
		return
	}
	n := int64(1)
	for _, e := range extent {
		n *= e
	}
	if n == 0 {
		return
	}
	run := extent[r-1] * size
	idx := make([]int64, r) // position inside the box, last axis always 0
	for at := int64(0); at < int64(len(chunk)); at += run {
		off := int64(0)
		for a := range r {
			off = off*shape[a] + start[a] + idx[a]
		}
		copy(full[off*size:], chunk[at:at+run])
		for a := r - 2; a >= 0; a-- {
			if idx[a]++; idx[a] < extent[a] {
				break
			}
			idx[a] = 0
		}
	}
}

// checkValues compares the assembled array with the record's count, hash,
// aggregates and probed cells.
func checkValues(t *testing.T, fx expectedFile, in *array.Info, full []byte) {
	t.Helper()
	want := fx.Expected
	if in.Elements() != want.Count {
		t.Errorf("%d elements, want %d", in.Elements(), want.Count)
	}
	if fx.ValuesUndefined {
		return
	}
	sum := sha256.Sum256(full)
	if got := hex.EncodeToString(sum[:]); got != want.SHA256 {
		t.Errorf("SHA-256 of the C-order little-endian bytes %s, want %s", got, want.SHA256)
	}
	st := stats(in.DType, full)
	if st.nans != want.NaNCount {
		t.Errorf("%d NaNs, want %d", st.nans, want.NaNCount)
	}
	if st.n == 0 {
		for name, raw := range map[string]json.RawMessage{"sum": want.Sum, "min": want.Min, "max": want.Max} {
			if !isNull(raw) {
				t.Errorf("no non-NaN elements, but expected %s is %s", name, raw)
			}
		}
	} else if in.DType.IsFloat() {
		checkFloat(t, "sum", st.fsum, want.Sum, 1e-9*want.SumAbs)
		checkFloat(t, "min", st.fmin, want.Min, 0)
		checkFloat(t, "max", st.fmax, want.Max, 0)
	} else {
		checkInt(t, "sum", st.isum, want.Sum)
		checkInt(t, "min", st.imin, want.Min)
		checkInt(t, "max", st.imax, want.Max)
	}
	for _, p := range want.Probes {
		checkProbe(t, in, full, p, len(fx.Shape) == 0)
	}
}

// checkProbe compares one cell with its expected value (exactly; null is
// NaN). A 0-d array's cell is probed with no coordinates.
func checkProbe(t *testing.T, in *array.Info, full []byte, p rawProbe, rank0 bool) {
	t.Helper()
	coords := p.Index
	if rank0 {
		coords = make([]int64, in.Rank())
	}
	if len(coords) != in.Rank() {
		t.Errorf("probe %v: %d coordinates for rank %d", p.Index, len(coords), in.Rank())
		return
	}
	flat := int64(0)
	for a, x := range coords {
		if x < 0 || x >= in.Shape[a] {
			t.Errorf("probe %v outside shape %v", p.Index, in.Shape)
			return
		}
		flat = flat*in.Shape[a] + x
	}
	i := int(flat)
	if in.DType.IsFloat() {
		got := in.DType.Float64(full, i)
		want, err := probeFloat(p.Value)
		if err != nil {
			t.Errorf("probe %v: value %s: %v", p.Index, p.Value, err)
		} else if !(got == want || math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("cell %v = %v, want %v", p.Index, got, want)
		}
		return
	}
	checkInt(t, fmt.Sprintf("cell %v", p.Index), intAt(in.DType, full, i), p.Value)
}

func checkFloat(t *testing.T, what string, got float64, raw json.RawMessage, tol float64) {
	t.Helper()
	if isNull(raw) {
		t.Errorf("%s = %v, want null", what, got)
		return
	}
	want, err := strconv.ParseFloat(string(raw), 64)
	switch {
	case err != nil:
		t.Errorf("%s: expected value %s: %v", what, raw, err)
	case tol == 0 && got != want, math.Abs(got-want) > tol:
		t.Errorf("%s = %v, want %v (tolerance %g)", what, got, want, tol)
	}
}

func checkInt(t *testing.T, what string, got *big.Int, raw json.RawMessage) {
	t.Helper()
	want, ok := new(big.Int).SetString(string(raw), 10)
	if !ok {
		t.Errorf("%s = %v, want %s (not an integer)", what, got, raw)
	} else if got.Cmp(want) != 0 {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// elemStats are the aggregates over the non-NaN elements: floats widened
// to float64 (the sum compensated), integers exact.
type elemStats struct {
	n, nans          int64
	fsum, fmin, fmax float64
	isum, imin, imax *big.Int
}

func stats(d array.DType, full []byte) elemStats {
	count := len(full) / d.Size()
	st := elemStats{isum: new(big.Int)}
	if d.IsFloat() {
		var comp float64 // Neumaier compensation
		for i := range count {
			v := d.Float64(full, i)
			if math.IsNaN(v) {
				st.nans++
				continue
			}
			if st.n == 0 || v < st.fmin {
				st.fmin = v
			}
			if st.n == 0 || v > st.fmax {
				st.fmax = v
			}
			st.n++
			s := st.fsum + v
			if math.Abs(st.fsum) >= math.Abs(v) {
				comp += (st.fsum - s) + v
			} else {
				comp += (v - s) + st.fsum
			}
			st.fsum = s
		}
		st.fsum += comp
		return st
	}
	for i := range count {
		v := intAt(d, full, i)
		st.isum.Add(st.isum, v)
		if st.n == 0 || v.Cmp(st.imin) < 0 {
			st.imin = v
		}
		if st.n == 0 || v.Cmp(st.imax) > 0 {
			st.imax = v
		}
		st.n++
	}
	return st
}

// intAt is integer element i, exactly.
func intAt(d array.DType, b []byte, i int) *big.Int {
	if d == array.U64 {
		return new(big.Int).SetUint64(d.Uint64(b, i))
	}
	return big.NewInt(d.Int64(b, i))
}

func strOrNil(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}
