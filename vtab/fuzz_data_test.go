package vtab_test

import (
	"database/sql"
	"encoding/binary"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// fuzzSet is one dataset of the differential fuzz file: the cells (as the
// SQL values a native table stores), the dims and label columns.
type fuzzSet struct {
	spec   tetcore.DatasetSpec
	vals   []any   // per rowid: int64, float64 or nil (NaN)
	bigint bool    // sums may overflow int64 (sum() is order dependent)
	tol    float64 // absolute tolerance for sums/means: 1e-12 · Σ|value|
}

func (s *fuzzSet) labeled(a int) bool { return s.spec.Labels[a] != nil }

// fuzzSets builds the fixed datasets of the differential fuzz file:
// several dtypes, ranks 1-3, edge chunks, raw and zstd, labelled axes
// (ascending dates, descending, duplicates, mixed case, numeric text).
func fuzzSets() []*fuzzSet {
	dates := func(n int, desc bool) []string {
		out := make([]string, n)
		for i := range out {
			d := i
			if desc {
				d = n - 1 - i
			}
			out[i] = fmt.Sprintf("2024-01-%02d", 1+d*3)
		}
		return out
	}
	f32s := []float64{0, 1, -1, 2.5, math.NaN(), math.Inf(1), math.Inf(-1), 0.1, -3.75, 1e30, -1e-30, 7, 42, 3, 3}
	f64s := []float64{0, 0.5, -2, 1e300, -1e300, 9007199254740992, 9007199254740993, 1e-300, math.NaN(), 3, 3.0000000000000004, -7.25, 100, 2.5}
	i64s := []int64{0, 1, -1, 1 << 53, 1<<53 + 1, 1<<53 + 2, 1<<53 + 3, -(1 << 53) - 1, math.MaxInt64, math.MaxInt64 - 1,
		math.MinInt64, math.MinInt64 + 1, 3, 42, -42, 1<<53 + 1, 1<<53 + 1, 1<<53 + 1, 1<<53 + 1, 1<<53 + 1, 7, 8, 9}
	u64s := []uint64{0, 1, 1 << 63, 1<<63 + 1, math.MaxUint64, math.MaxInt64, 3, 1<<63 + 2048, 1<<63 + 2048, 1<<63 + 2048, 5, 1 << 53, 1<<53 + 1}
	g64s := []float64{1 << 53, 1 << 53, 1 << 53, 1, math.NaN(), 3, -(1 << 53), -(1 << 53), -(1 << 53), 1 << 63}
	mk := func(name string, dt tetcore.DType, shape, chunk []int64, codec tetcore.Codec, dims []string, labels [][]string, gen func(i int) any) *fuzzSet {
		n := 1
		for _, v := range shape {
			n *= int(v)
		}
		s := &fuzzSet{spec: tetcore.DatasetSpec{Name: name, DType: dt, Shape: shape, ChunkShape: chunk, Codec: codec,
			DimNames: dims, Labels: labels}}
		for i := 0; i < n; i++ {
			s.vals = append(s.vals, gen(i))
		}
		return s
	}
	sets := []*fuzzSet{
		mk("x", tetcore.F32, []int64{9, 5}, []int64{4, 2}, tetcore.CodecZstd, []string{"day", "site"},
			[][]string{dates(9, false), {"Oslo", "oslo", "Bergen", "OSLO", "bergen "}},
			func(i int) any { return f32s[(i*7)%len(f32s)] }),
		mk("y", tetcore.F64, []int64{4, 3, 5}, []int64{3, 2, 2}, tetcore.CodecRaw, []string{"a", "b", "c"},
			[][]string{nil, {"z", "m", "c"}, {"10", "9", " 3", "-1", "1e400"}},
			func(i int) any { return f64s[(i*5)%len(f64s)] }),
		mk("z", tetcore.I64, []int64{23}, []int64{5}, tetcore.CodecZstd, []string{"n"}, [][]string{nil},
			func(i int) any { return i64s[i] }),
		mk("u", tetcore.U8, []int64{6, 7}, []int64{4, 4}, tetcore.CodecRaw, []string{"r", "s"},
			[][]string{{"b", "B", "a", "a", "c", "C"}, dates(7, true)},
			func(i int) any { return int64((i * 37) % 256) }),
		mk("w", tetcore.U64, []int64{13}, []int64{4}, tetcore.CodecZstd, []string{"k"}, [][]string{{"k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9", "K10", "k11", "k12"}},
			func(i int) any { return u64s[i] }),
		mk("v", tetcore.I16, []int64{3, 4, 2}, []int64{2, 3, 2}, tetcore.CodecZstd, []string{"p", "q", "o"},
			[][]string{{"3", "03", "3"}, nil, {"Ab", "aB"}},
			func(i int) any { return int64((i*2741)%65536 - 32768) }),
		// Whole chunks of floats at ±2^53 and 2^63 for the chunk statistics.
		mk("g", tetcore.F64, []int64{10}, []int64{3}, tetcore.CodecRaw, []string{"t"}, [][]string{nil},
			func(i int) any { return g64s[i] }),
	}
	sets[2].bigint, sets[4].bigint = true, true
	return sets
}

// encode returns the dataset's little-endian element bytes.
func (s *fuzzSet) encode() []byte {
	dt := s.spec.DType
	size := dt.Size()
	data := make([]byte, len(s.vals)*size)
	for i, v := range s.vals {
		b := data[i*size:]
		switch dt {
		case tetcore.F32:
			binary.LittleEndian.PutUint32(b, math.Float32bits(float32(v.(float64))))
		case tetcore.F64:
			binary.LittleEndian.PutUint64(b, math.Float64bits(v.(float64)))
		case tetcore.U64:
			binary.LittleEndian.PutUint64(b, v.(uint64))
		case tetcore.I64:
			binary.LittleEndian.PutUint64(b, uint64(v.(int64)))
		case tetcore.I16:
			binary.LittleEndian.PutUint16(b, uint16(v.(int64)))
		case tetcore.U8:
			b[0] = byte(v.(int64))
		}
	}
	return data
}

// sqlValue converts a source value to what a native table stores: NaN →
// NULL, u64 above 2^63-1 → REAL, f32 widened exactly.
func sqlValue(v any) any {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) {
			return nil
		}
		return x
	case uint64:
		if x > math.MaxInt64 {
			return float64(x)
		}
		return int64(x)
	}
	return v
}

// writeFuzzFile writes the datasets to a .tet file in dir.
func writeFuzzFile(t testing.TB, dir string, sets []*fuzzSet) string {
	path := filepath.Join(dir, "fuzz.tet")
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sets {
		if err := w.AddDataset(s.spec); err != nil {
			t.Fatalf("%s: %v", s.spec.Name, err)
		}
	}
	for _, s := range sets {
		if err := w.WriteDataset(s.encode()); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// loadNative creates main.native_<name> for each dataset with the cells
// table's column names and declared types, rowids included, and
// main.native_tet_dims as a copy of the metadata table.
func loadNative(t testing.TB, db *sql.DB, sets []*fuzzSet) {
	for _, s := range sets {
		sp := s.spec
		var cols, marks []string
		for _, d := range sp.DimNames {
			cols = append(cols, d+" INTEGER")
		}
		for a, d := range sp.DimNames {
			if s.labeled(a) {
				cols = append(cols, d+"_label TEXT")
			}
		}
		vt := "INTEGER"
		switch sp.DType {
		case tetcore.F32:
			vt = "FLOAT"
		case tetcore.F64:
			vt = "REAL"
		}
		cols = append(cols, "value "+vt)
		for range len(cols) + 1 {
			marks = append(marks, "?")
		}
		if _, err := db.Exec(fmt.Sprintf("CREATE TABLE main.native_%s(%s)", sp.Name, strings.Join(cols, ", "))); err != nil {
			t.Fatal(err)
		}
		ins := fmt.Sprintf("INSERT INTO main.native_%s(rowid, %s) VALUES (%s)", sp.Name,
			strings.Join(colNames(cols), ", "), strings.Join(marks, ", "))
		coords := make([]int64, len(sp.Shape))
		for r, v := range s.vals {
			rem := int64(r)
			for a := len(sp.Shape) - 1; a >= 0; a-- {
				coords[a] = rem % sp.Shape[a]
				rem /= sp.Shape[a]
			}
			args := []any{int64(r)}
			for _, c := range coords {
				args = append(args, c)
			}
			for a := range sp.Shape {
				if s.labeled(a) {
					args = append(args, sp.Labels[a][coords[a]])
				}
			}
			sv := sqlValue(v)
			if f, ok := sv.(float64); ok && sp.DType == tetcore.F32 {
				sv = float64(float32(f))
			}
			args = append(args, sv)
			if _, err := db.Exec(ins, args...); err != nil {
				t.Fatal(err)
			}
			switch x := sv.(type) {
			case float64:
				if !math.IsInf(x, 0) {
					s.tol += math.Abs(x) * 1e-12
				}
			case int64:
				s.tol += math.Abs(float64(x)) * 1e-12
			}
		}
	}
	if _, err := db.Exec("CREATE TABLE main.native_tet_dims AS SELECT * FROM f.tet_dims"); err != nil {
		t.Fatal(err)
	}
}

func colNames(decls []string) []string {
	out := make([]string, len(decls))
	for i, d := range decls {
		out[i] = strings.Fields(d)[0]
	}
	return out
}
