package vtab_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

func TestValuePredicatesSkipChunksFoldedByAggregates(t *testing.T) {
	t.Parallel()
	db, sess := openDB(t, map[string]string{"st": writeStations(t)})
	q := "SELECT count(*), min(value) FROM st.temp WHERE value > 2500 AND value <> 2600"
	before := rowsOf(t, db, q)
	if s := sess.TakeScans(); s[0].ChunksDecoded != 15 || s[0].ChunksSkipped != 0 {
		t.Fatalf("before any aggregate: %+v", s[0])
	}
	rowsOf(t, db, "SELECT count FROM st.temp_agg('station')") // folds every chunk whole
	sess.TakeScans()
	after := rowsOf(t, db, q)
	s := sess.TakeScans()[0]
	if before[0] != "23|2501" || after[0] != before[0] {
		t.Fatalf("results %v then %v", before, after)
	}
	// Chunks cover 7 days: the 9 chunks of days 0..20 have max ≤ 2004.
	if s.ChunksDecoded != 6 || s.ChunksSkipped != 9 {
		t.Fatalf("after the aggregate: %+v", s)
	}
	for _, tc := range []struct {
		where   string
		skipped int64
	}{
		{"value < 100", 12}, {"value = 704", 12}, {"value >= 2904", 14}, {"value <= 99.5", 12},
		{"value > 'abc'", 0}, {"value IS NULL", 0}, {"value = NULL", 0},
	} {
		rowsOf(t, db, "SELECT count(*) FROM st.temp WHERE "+tc.where)
		if s := sess.TakeScans()[0]; s.ChunksSkipped != tc.skipped {
			t.Errorf("WHERE %s: skipped %d chunks, want %d", tc.where, s.ChunksSkipped, tc.skipped)
		}
	}
}

// TestValuePredicatesSkipExactlyNearIntegerLimits compares value
// predicates on i64, u64 and f64 datasets holding values around 2^53 and
// 2^63 with the same values in native SQLite tables, for boundary
// INTEGER, REAL and TEXT arguments, before and after an aggregate caches
// each chunk's statistics (which the cells table then skips chunks by;
// the cells scan also computes them itself, on first need).
func TestValuePredicatesSkipExactlyNearIntegerLimits(t *testing.T) {
	t.Parallel()
	const p53 = int64(1) << 53
	i64s := []int64{-3, 0, 1, 7, p53 - 3, p53 - 1, p53, p53 + 1, p53 + 3, p53 + 5, p53 + 7, p53 + 9,
		math.MaxInt64 - 5, math.MaxInt64 - 1, math.MaxInt64, math.MaxInt64 - 3,
		math.MinInt64, math.MinInt64 + 1, -p53 - 1, -p53 + 1}
	u64s := []uint64{0, 1, uint64(p53) - 1, uint64(p53), uint64(p53) + 1, uint64(p53) + 3,
		math.MaxInt64 - 1, math.MaxInt64, 1 << 63, 1<<63 + 1, 1<<63 + 2048, 1<<63 + 4096,
		math.MaxUint64 - 2048, math.MaxUint64 - 1, math.MaxUint64, 5}
	f64s := []float64{0.5, 1.5, -2, 3, float64(p53), float64(p53) + 2, float64(p53) + 4, float64(p53) + 8,
		0x1p63, -0x1p63, 0x1p63 + 2048, 0x1p64, 1e300, -1e300, 7, float64(p53) - 1}

	path := filepath.Join(t.TempDir(), "limits.tet")
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	enc := func(n int, put func(b []byte, i int)) []byte {
		b := make([]byte, 8*n)
		for i := 0; i < n; i++ {
			put(b[8*i:], i)
		}
		return b
	}
	sets := []struct {
		name string
		dt   tetcore.DType
		n    int
		data []byte
		sqlT string
		val  func(i int) any // the value the cells table emits
	}{
		{"i", tetcore.I64, len(i64s), enc(len(i64s), func(b []byte, i int) { binary.LittleEndian.PutUint64(b, uint64(i64s[i])) }),
			"INTEGER", func(i int) any { return i64s[i] }},
		{"u", tetcore.U64, len(u64s), enc(len(u64s), func(b []byte, i int) { binary.LittleEndian.PutUint64(b, u64s[i]) }),
			"INTEGER", func(i int) any {
				if u := u64s[i]; u > math.MaxInt64 {
					return float64(u) // emitted as REAL
				}
				return int64(u64s[i])
			}},
		{"f", tetcore.F64, len(f64s), enc(len(f64s), func(b []byte, i int) { binary.LittleEndian.PutUint64(b, math.Float64bits(f64s[i])) }),
			"REAL", func(i int) any { return f64s[i] }},
	}
	for _, s := range sets {
		if err := w.AddDataset(tetcore.DatasetSpec{Name: s.name, DType: s.dt, Shape: []int64{int64(s.n)}, ChunkShape: []int64{2}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range sets {
		if err := w.WriteDataset(s.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	db, sess := openDB(t, map[string]string{"x": path})
	for _, s := range sets {
		if _, err := db.Exec("CREATE TABLE n_" + s.name + "(d0 INTEGER, value " + s.sqlT + ")"); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < s.n; i++ {
			if _, err := db.Exec("INSERT INTO n_"+s.name+" VALUES (?, ?)", i, s.val(i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	args := []any{p53 - 1, p53, p53 + 1, p53 + 2, p53 + 3, p53 + 5, p53 + 7, int64(math.MaxInt64), int64(math.MaxInt64 - 1),
		int64(math.MinInt64), int64(math.MinInt64 + 1), -p53 - 1, int64(0), int64(7),
		float64(p53), float64(p53) + 2, float64(p53) + 4, 0x1p63, -0x1p63, 0x1p63 + 2048, 0x1p64, 1.5, 1e300, math.Inf(1), math.Inf(-1),
		"9007199254740993", " 9007199254740995 ", "9223372036854775807", "9223372036854775808", "9223372036854777856",
		"18446744073709551615", "1e300", "9007199254740993.0", "\u00a07", "abc", "", "-0", "+7", ".5e1"}
	ops := []string{"=", "<", "<=", ">", ">="}
	check := func(pass string) (skipped int64) {
		for _, s := range sets {
			for _, a := range args {
				for _, op := range ops {
					q := "SELECT d0 FROM %s WHERE value " + op + " ? ORDER BY d0"
					got := rowsOf(t, db, fmt.Sprintf(q, "x."+s.name), a)
					for _, sc := range sess.TakeScans() {
						skipped += sc.ChunksSkipped
					}
					want := rowsOf(t, db, fmt.Sprintf(q, "n_"+s.name), a)
					if strings.Join(got, ",") != strings.Join(want, ",") {
						t.Errorf("%s: %s.value %s %#v: got %v, want %v", pass, s.name, op, a, got, want)
					}
				}
			}
		}
		return skipped
	}
	// The first query reads every chunk and keeps its statistics (first
	// need); the following ones skip by them.
	if n := check("statistics on first need"); n < 1000 {
		t.Errorf("only %d chunks skipped with statistics computed on first need", n)
	}
	for _, s := range sets {
		rowsOf(t, db, "SELECT count FROM x."+s.name+"_agg") // caches every chunk's statistics
	}
	if n := check("cached statistics"); n < 1000 {
		t.Errorf("only %d chunks skipped with statistics cached", n)
	}
}
