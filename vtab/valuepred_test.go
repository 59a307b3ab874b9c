package vtab_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// Value predicates are evaluated by the cells scan (and consumed): these
// tests compare them with SQLite on native tables holding the same
// values, for every operator and argument type, on random arrays of
// several dtypes with NaN, ±Inf, values past 2^63 and edge chunks.

// valueArgs are the right-hand sides tried: INTEGER, REAL, TEXT that
// converts (to INTEGER or REAL) or stays TEXT, NULL, and values at the
// limits of int64 and float64.
var valueArgs = []string{"0", "3", "-3", "7", "100", "2.5", "-0.5", "-0.0", "'3'", "' 4.5 '", "'1e1'", "'abc'", "''",
	"x'01'", "NULL", "9223372036854775807", "-9223372036854775808", "9223372036854775808.0", "1e300", "-1e300",
	"'9223372036854775808'", "'18446744073709551615'", "18446744073709551615.0", "9e999", "-9e999", "'-7'", "'0x10'"}

// randomElements fills n elements of dt with small values, repeats,
// NaN, ±Inf, and (u64) values past 2^63.
func randomElements(rng *rand.Rand, dt tetcore.DType, n int64) []byte {
	b := make([]byte, n*int64(dt.Size()))
	for i := 0; i < int(n); i++ {
		v := float64(rng.IntN(25) - 10)
		if rng.IntN(3) == 0 {
			v += 0.5
		}
		special := rng.IntN(12)
		switch dt {
		case tetcore.F32, tetcore.F64, tetcore.F16:
			switch special {
			case 0:
				v = math.NaN()
			case 1:
				v = math.Inf(1 - 2*rng.IntN(2))
			case 2:
				v = math.Copysign(0, -1)
			}
			switch dt {
			case tetcore.F32:
				binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(v)))
			case tetcore.F64:
				binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
			default:
				binary.LittleEndian.PutUint16(b[2*i:], f16bits(v))
			}
		case tetcore.U64:
			u := uint64(max(v, 0))
			switch special {
			case 0:
				u = math.MaxUint64 - uint64(rng.IntN(3000))
			case 1:
				u = 1<<63 + uint64(rng.IntN(3000)) - 1500
			}
			binary.LittleEndian.PutUint64(b[8*i:], u)
		default:
			x := int64(v)
			if special == 0 && dt == tetcore.I64 {
				x = math.MaxInt64 - int64(rng.IntN(3))
			}
			if dt == tetcore.U8 || dt == tetcore.U16 || dt == tetcore.U32 {
				x = max(x, 0)
			}
			for k := 0; k < dt.Size(); k++ {
				b[i*dt.Size()+k] = byte(x >> (8 * k))
			}
		}
	}
	return b
}

// f16bits encodes the small values, zeros, infinities and NaN used here.
func f16bits(v float64) uint16 {
	switch {
	case math.IsNaN(v):
		return 0x7e00
	case math.IsInf(v, 1):
		return 0x7c00
	case math.IsInf(v, -1):
		return 0xfc00
	case v == 0:
		if math.Signbit(v) {
			return 0x8000
		}
		return 0
	}
	sign := uint16(0)
	if v < 0 {
		sign, v = 0x8000, -v
	}
	frac, exp := math.Frexp(v) // v = frac·2^exp, frac in [0.5, 1)
	return sign | uint16(exp+14)<<10 | uint16((frac*2-1)*1024)
}

// makeValueFile writes one dataset per dtype with random shapes and
// chunkings (edge chunks included).
func makeValueFile(t *testing.T, rng *rand.Rand) (string, []diffDataset) {
	t.Helper()
	var sets []diffDataset
	for i, dt := range []tetcore.DType{tetcore.F32, tetcore.F64, tetcore.F16, tetcore.I16, tetcore.I32, tetcore.I64, tetcore.U8, tetcore.U64} {
		rank := 1 + rng.IntN(3)
		shape, chunk := make([]int64, rank), make([]int64, rank)
		names := make([]string, rank)
		n := int64(1)
		for a := range shape {
			shape[a] = 1 + rng.Int64N(12)
			chunk[a] = 1 + rng.Int64N(shape[a])
			n *= shape[a]
			names[a] = fmt.Sprintf("k%d", a)
		}
		spec := tetcore.DatasetSpec{Name: fmt.Sprintf("v%d", i), DType: dt, Shape: shape, ChunkShape: chunk,
			Codec: tetcore.Codec(rng.IntN(2)), DimNames: names, Labels: make([][]string, rank)}
		sets = append(sets, diffDataset{spec, randomElements(rng, dt, n)})
	}
	path := writeSets(t, "values.tet", sets)
	return path, sets
}

// valueWhere is a random conjunction of value terms (op or BETWEEN),
// sometimes with a dim or rowid term.
func valueWhere(rng *rand.Rand, sp tetcore.DatasetSpec) string {
	arg := func() string { return valueArgs[rng.IntN(len(valueArgs))] }
	var terms []string
	for k := 1 + rng.IntN(2); k > 0; k-- {
		switch rng.IntN(8) {
		case 0, 1:
			terms = append(terms, fmt.Sprintf("value BETWEEN %s AND %s", arg(), arg()))
		case 2:
			terms = append(terms, fmt.Sprintf("value IN (%s, %s, %s)", arg(), arg(), arg()))
		default:
			terms = append(terms, "value "+sqlOps[rng.IntN(len(sqlOps))]+" "+arg())
		}
	}
	switch rng.IntN(4) {
	case 0:
		a := rng.IntN(len(sp.Shape))
		terms = append(terms, fmt.Sprintf("%s %s %d", sp.DimNames[a], sqlOps[rng.IntN(5)], rng.Int64N(sp.Shape[a])))
	case 1:
		terms = append(terms, fmt.Sprintf("rowid %s %d", sqlOps[rng.IntN(5)], rng.IntN(40)))
	}
	return strings.Join(terms, " AND ")
}

func TestValuePredicates_matchSQLite(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 1))
	rounds, queries := 3, 300
	if testing.Short() {
		rounds, queries = 1, 150
	}
	for round := 0; round < rounds; round++ {
		path, sets := makeValueFile(t, rng)
		db, _ := openDB(t, map[string]string{"f": path})
		for _, s := range sets {
			copyNative(t, db, s)
		}
		for q := 0; q < queries; q++ {
			s := sets[rng.IntN(len(sets))]
			w := valueWhere(rng, s.spec)
			n, m := 1+rng.IntN(8), rng.IntN(6)
			// Full results, ordered: against the native table.
			full := "SELECT rowid, value FROM %s WHERE " + w + " ORDER BY rowid"
			want := rowsOf(t, db, fmt.Sprintf(full, "main.n_"+s.spec.Name))
			got := negZero(rowsOf(t, db, fmt.Sprintf(full, "f."+s.spec.Name)))
			if !slices.Equal(got, want) {
				t.Fatalf("%s %v chunks %v: WHERE %s:\ncells:  %v\nnative: %v", s.spec.DType, s.spec.Shape, s.spec.ChunkShape, w, got, want)
			}
			agg := "SELECT count(*), count(value), sum(value >= 0) FROM %s WHERE " + w
			if g, n := rowsOf(t, db, fmt.Sprintf(agg, "f."+s.spec.Name)), rowsOf(t, db, fmt.Sprintf(agg, "main.n_"+s.spec.Name)); !slices.Equal(g, n) {
				t.Fatalf("%s: WHERE %s: count %v, native %v", s.spec.DType, w, g, n)
			}
			// LIMIT/OFFSET with no ORDER BY come in scan order: the same
			// rows as the unlimited scan, from the m-th passing row on.
			scanned := negZero(rowsOf(t, db, fmt.Sprintf("SELECT rowid, value FROM f.%s WHERE %s", s.spec.Name, w)))
			sorted := slices.Clone(scanned)
			slices.SortFunc(sorted, func(a, b string) int { return rowidOf(a) - rowidOf(b) })
			if !slices.Equal(sorted, want) {
				t.Fatalf("%s: WHERE %s: scan order rows %v, native %v", s.spec.DType, w, scanned, want)
			}
			gl := negZero(rowsOf(t, db, fmt.Sprintf("SELECT rowid, value FROM f.%s WHERE %s LIMIT %d OFFSET %d", s.spec.Name, w, n, m)))
			wl := scanned[min(m, len(scanned)):min(m+n, len(scanned))]
			if !slices.Equal(gl, wl) {
				t.Fatalf("%s %v chunks %v: WHERE %s LIMIT %d OFFSET %d:\ngot:  %v\nwant: %v", s.spec.DType, s.spec.Shape,
					s.spec.ChunkShape, w, n, m, gl, wl)
			}
		}
	}
}

// negZero renders -0 as SQLite's native tables store it: 0.
func negZero(rows []string) []string {
	for i, r := range rows {
		f := strings.Split(r, "|")
		for j := range f {
			if f[j] == "-0" {
				f[j] = "0"
			}
		}
		rows[i] = strings.Join(f, "|")
	}
	return rows
}

// writeRamp writes one f32 dataset "r" of n elements in chunks of c whose
// value is the element's index (so chunk k holds [k·c, (k+1)·c)), with
// NaN at every index divisible by 1000, and a footer (dim names).
func writeRamp(t *testing.T, n, c int64) string {
	t.Helper()
	b := make([]byte, 4*n)
	for i := int64(0); i < n; i++ {
		v := float32(i)
		if i%1000 == 0 {
			v = float32(math.NaN())
		}
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	path := filepath.Join(t.TempDir(), "ramp.tet")
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.AddDataset(tetcore.DatasetSpec{Name: "r", DType: tetcore.F32, Shape: []int64{n}, ChunkShape: []int64{c}, DimNames: []string{"d0"}}); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteDataset(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestValuePredicates_skipChunksOnSecondScan: the first scan reads every
// chunk and keeps its min/max; the next skips the chunks they exclude
// without reading them, and the scan itself filters (its row count is
// the passing rows, not the chunk's).
func TestValuePredicates_skipChunksOnSecondScan(t *testing.T) {
	path := writeRamp(t, 10000, 100) // 100 chunks
	db, sess := openDB(t, map[string]string{"f": path})
	for i, tc := range []struct {
		where                    string
		count                    string
		decoded, skipped, rowsIn int64
	}{
		{"value > 9349.5", "650", 100, 0, 650}, // first need: every chunk read
		{"value > 9349.5", "650", 7, 93, 650},  // chunks 93..99 only
		{"value BETWEEN 250 AND 449", "200", 3, 97, 200},
		{"value = 5000.5", "0", 0, 100, 0},
		{"value < 'x' AND value >= 9990", "10", 1, 99, 10},
		{"value > 'x'", "0", 0, 0, 0},
		{"value <= NULL", "0", 0, 0, 0},
	} {
		if got := rowsOf(t, db, "SELECT count(*) FROM f.r WHERE "+tc.where); got[0] != tc.count {
			t.Fatalf("%d: WHERE %s: count %v, want %s", i, tc.where, got, tc.count)
		}
		s := sess.TakeScans()[0]
		if s.ChunksDecoded != tc.decoded || s.ChunksSkipped != tc.skipped || s.Rows != tc.rowsIn {
			t.Errorf("%d: WHERE %s: decoded=%d skipped=%d rows=%d, want %d %d %d", i, tc.where,
				s.ChunksDecoded, s.ChunksSkipped, s.Rows, tc.decoded, tc.skipped, tc.rowsIn)
		}
		if !strings.Contains(s.String(), fmt.Sprintf("skipped=%d", tc.skipped)) && tc.skipped > 0 {
			t.Errorf("stats line %q lacks skipped=%d", s.String(), tc.skipped)
		}
	}
}

// TestValuePredicates_longRows: one chunk of 30000 elements, longer than
// the run of values a scan copies out of a mapped file at once: the
// passing elements are found across those runs.
func TestValuePredicates_longRows(t *testing.T) {
	db, _ := openDB(t, map[string]string{"f": writeRamp(t, 30000, 30000)})
	for _, tc := range []struct{ where, want string }{
		{"value > 20000.5", "9990"},
		{"value BETWEEN 8190 AND 8195", "6"},
		{"value > 8190 AND value < 8193", "2"},
		{"value >= 16383 AND value <= 16385", "3"},
		{"value > 29998", "1"},
		{"value < 1.5", "1"},
	} {
		if got := rowsOf(t, db, "SELECT count(*) FROM f.r WHERE "+tc.where); got[0] != tc.want {
			t.Errorf("WHERE %s: %v, want %s", tc.where, got, tc.want)
		}
	}
	// _agg folds the passing elements of the chunk in pieces (longer
	// than its scratch buffer), grouped and not.
	var n, sum int64
	for i := int64(8191); i < 24578; i++ {
		if i%1000 != 0 {
			n, sum = n+1, sum+i
		}
	}
	want := fmt.Sprintf("%d|%d", n, sum)
	if got := rowsOf(t, db, "SELECT count, CAST(sum AS INTEGER) FROM f.r_agg WHERE value > 8190 AND value < 24578"); got[0] != want {
		t.Errorf("_agg: %v, want %s", got, want)
	}
	if got := rowsOf(t, db, "SELECT count(*), CAST(sum(value) AS INTEGER) FROM f.r WHERE value > 8190 AND value < 24578"); got[0] != want {
		t.Errorf("cells: %v, want %s", got, want)
	}
	if got := rowsOf(t, db, "SELECT sum(count), count(*) FROM f.r_agg('d0') WHERE value > 8190 AND value < 24578"); got[0] != fmt.Sprintf("%d|%d", n, n) {
		t.Errorf("_agg by d0: %v, want %d groups of 1", got, n)
	}
	got := rowsOf(t, db, "SELECT rowid FROM f.r WHERE value > 8190 AND value < 24578 AND rowid % 8192 < 2 LIMIT 3 OFFSET 1")
	if strings.Join(got, ",") != "8193,16384,16385" {
		t.Errorf("LIMIT/OFFSET across runs: %v", got)
	}
}
