package vtab_test

import (
	"cmp"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
	"github.com/tetsql/tetsql/vtab"
)

// topkDTypes are the dtypes the top-k differential draws arrays of (.tet
// has no i8: i16 and u8 stand for the small integers).
var topkDTypes = []tetcore.DType{tetcore.F32, tetcore.F64, tetcore.F16, tetcore.I16, tetcore.U8, tetcore.I32, tetcore.U64}

// topkValues fills n elements of dt from a small pool, so that ties are
// common, with NaN, ±Inf, -0, the extremes of the dtype and (u64) values
// above 2^63 that round to the same REAL.
func topkValues(rng *rand.Rand, dt tetcore.DType, n int64) []byte {
	size := dt.Size()
	out := make([]byte, n*int64(size))
	le := binary.LittleEndian
	floats := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, -1, 2.5, -2.5, 1000, 7, 7, 7}
	ints := []int64{0, 1, -1, 5, 5, 5, 100, -100, 127, -128}
	u64s := []uint64{0, 1, 5, 5, math.MaxInt64, 1 << 63, 1<<63 + 1, 1<<63 + 1024, 1<<63 + 4096,
		math.MaxUint64, math.MaxUint64 - 1, math.MaxUint64 - 4096}
	for i := int64(0); i < n; i++ {
		b := out[i*int64(size):]
		switch dt {
		case tetcore.F32:
			le.PutUint32(b, math.Float32bits(float32(floats[rng.IntN(len(floats))]+float64(rng.IntN(3)))))
		case tetcore.F64:
			le.PutUint64(b, math.Float64bits(floats[rng.IntN(len(floats))]+float64(rng.IntN(3))/4))
		case tetcore.F16:
			h := []uint16{0x7e00, 0x7c00, 0xfc00, 0x0000, 0x8000, 0x3c00, 0xbc00, 0x4100, 0x4100, 0x7bff, 0x0001}
			le.PutUint16(b, h[rng.IntN(len(h))])
		case tetcore.I16:
			le.PutUint16(b, uint16(int16(ints[rng.IntN(len(ints))]*int64(1+rng.IntN(2)*255))))
		case tetcore.U8:
			b[0] = byte(ints[rng.IntN(len(ints))])
		case tetcore.I32:
			v := ints[rng.IntN(len(ints))]
			if rng.IntN(8) == 0 {
				v = []int64{math.MaxInt32, math.MinInt32}[rng.IntN(2)]
			}
			le.PutUint32(b, uint32(int32(v)))
		case tetcore.U64:
			le.PutUint64(b, u64s[rng.IntN(len(u64s))])
		}
	}
	return out
}

// makeTopkFile writes one random array per dtype of topkDTypes, with
// edge chunks, some labelled axes, and returns them.
func makeTopkFile(t *testing.T, rng *rand.Rand) (string, []diffDataset) {
	var sets []diffDataset
	for i, dt := range topkDTypes {
		rank := 1 + rng.IntN(3)
		shape, chunk := make([]int64, rank), make([]int64, rank)
		names := make([]string, rank)
		n := int64(1)
		for a := range shape {
			shape[a] = 1 + rng.Int64N(11)
			chunk[a] = 1 + rng.Int64N(shape[a])
			n *= shape[a]
			names[a] = fmt.Sprintf("k%d", a)
		}
		spec := tetcore.DatasetSpec{Name: fmt.Sprintf("tk%d", i), DType: dt, Shape: shape, ChunkShape: chunk,
			Codec: tetcore.Codec(rng.IntN(2)), DimNames: names, Labels: make([][]string, rank)}
		if kind := rng.IntN(4); kind > 0 {
			spec.Labels[0] = make([]string, shape[0])
			for j := range spec.Labels[0] {
				spec.Labels[0][j] = []string{"", fmt.Sprintf("L%02d", j), // sorted
					fmt.Sprintf("L%02d", 20-j), fmt.Sprintf("L%02d", j/2)}[kind] // descending, duplicates
			}
		}
		sets = append(sets, diffDataset{spec, topkValues(rng, dt, n)})
	}
	path := writeSets(t, "topk.tet", sets)
	return path, sets
}

var idxNumRe = regexp.MustCompile(`INDEX (\d+):`)

// queryPlan is the EXPLAIN QUERY PLAN of q, one detail per line.
func queryPlan(t *testing.T, db *sql.DB, q string, args ...any) string {
	t.Helper()
	var out []string
	for _, r := range rowsOf(t, db, "EXPLAIN QUERY PLAN "+q, args...) {
		parts := strings.SplitN(r, "|", 4)
		out = append(out, parts[len(parts)-1])
	}
	return strings.Join(out, "\n")
}

// isTopK reports whether the plan of q is a top-k (idxNum bit 8).
func isTopK(t *testing.T, db *sql.DB, q string, args ...any) bool {
	t.Helper()
	m := idxNumRe.FindStringSubmatch(queryPlan(t, db, q, args...))
	if m == nil {
		return false
	}
	n, _ := strconv.Atoi(m[1])
	return n&8 != 0
}

// topkWhere returns random WHERE clauses: none, dims, rowid, labels
// (sorted, descending, duplicated; compared with text, numbers, under
// NOCASE), value terms (a fallback), value IS NOT NULL (taken), empty
// selections; and whether the top-k must take the query.
func topkWhere(rng *rand.Rand, sp tetcore.DatasetSpec) (string, bool) {
	n := int64(1)
	for _, v := range sp.Shape {
		n *= v
	}
	a := rng.IntN(len(sp.Shape))
	d := sp.DimNames[a]
	switch rng.IntN(9) {
	case 0:
		return "", true // (WHERE 1 would keep SQLite from offering the LIMIT)
	case 1:
		return fmt.Sprintf("%s >= %d", d, rng.Int64N(sp.Shape[a]+1)), true
	case 2:
		lo := rng.Int64N(sp.Shape[a])
		return fmt.Sprintf("%s BETWEEN %d AND %d", d, lo, lo+rng.Int64N(3)), true
	case 3:
		return fmt.Sprintf("rowid > %d AND rowid <= %d", rng.Int64N(n), rng.Int64N(n+1)), true
	case 4:
		return fmt.Sprintf("%s < 0", d), true // empty
	case 5:
		if sp.Labels[0] != nil {
			op := sqlOps[rng.IntN(len(sqlOps))]
			// Pushed (and a top-k) when labels strictly ascend, or for =.
			pushed := op == "=" || slices.IsSortedFunc(sp.Labels[0], func(a, b string) int {
				return cmp.Or(strings.Compare(a, b), -1) // equal labels: not strictly ascending
			})
			if rng.IntN(5) == 0 { // a number against a label: SQLite's affinity rules
				return fmt.Sprintf("k0_label %s %d", op, rng.Int64N(20)), pushed
			}
			if rng.IntN(5) == 0 { // another collation: not pushed, no top-k
				return fmt.Sprintf("k0_label %s 'l%02d' COLLATE NOCASE", op, rng.Int64N(20)), false
			}
			return fmt.Sprintf("k0_label %s 'L%02d' AND %s >= 0", op, rng.Int64N(20), sp.DimNames[0]), pushed
		}
		return fmt.Sprintf("%s = %d", d, rng.Int64N(sp.Shape[a])), true
	case 6:
		switch rng.IntN(4) {
		case 0:
			return "value > 1", false
		case 1:
			return "value IS NULL", false
		}
		return fmt.Sprintf("value IS NOT NULL AND %s >= %d", d, rng.Int64N(sp.Shape[a]+1)), true
	case 7:
		return fmt.Sprintf("%s IN (0, %d)", d, rng.Int64N(sp.Shape[a])), false
	}
	return fmt.Sprintf("%s = %d AND rowid >= %d", sp.DimNames[0], rng.Int64N(sp.Shape[0]), rng.Int64N(n)), true
}

// TestTopK_differential compares ORDER BY value [DESC] LIMIT k [OFFSET m]
// on cells tables (as a top-k where the plan allows, else as before)
// with the same query ordered by value then rowid on a native table
// holding the same rows, and on the cells table with +value (no top-k),
// before and after the chunks' statistics exist.
func TestTopK_differential(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 3))
	for round := 0; round < 3; round++ {
		path, sets := makeTopkFile(t, rng)
		db, sess := openDB(t, map[string]string{"f": path})
		for _, s := range sets {
			copyNative(t, db, s)
		}
		var skipped, topks int64
		for pass := 0; pass < 2; pass++ {
			for _, s := range sets {
				for q := 0; q < 40; q++ {
					w, exact := topkWhere(rng, s.spec)
					dir := []string{"", " DESC"}[rng.IntN(2)]
					k := []int64{0, 1, 3, 7, 100000}[rng.IntN(5)]
					off := []string{"", " OFFSET 0", " OFFSET 2", " OFFSET 1000"}[rng.IntN(4)]
					cols := "rowid, value, " + strings.Join(s.spec.DimNames, ", ")
					if s.spec.Labels[0] != nil {
						cols += ", k0_label"
					}
					if w != "" {
						w = "WHERE " + w
					}
					q := fmt.Sprintf("SELECT %s FROM %%s %s ORDER BY %%s%s%%s LIMIT %d%s", cols, w, dir, k, off)
					// Without the top-k, SQLite breaks ties as it likes.
					tie := ""
					if !exact {
						tie = ", rowid"
					}
					got := rowsOf(t, db, fmt.Sprintf(q, "f."+s.spec.Name, "value", tie))
					// LIMIT 0 does not reach the table.
					if k > 0 && isTopK(t, db, fmt.Sprintf(q, "f."+s.spec.Name, "value", "")) != exact {
						t.Fatalf("%s: top-k plan %v, want %v", fmt.Sprintf(q, "T", "value", ""), !exact, exact)
					}
					for _, sc := range sess.TakeScans() {
						skipped += sc.ChunksSkipped
						topks++
					}
					want := rowsOf(t, db, fmt.Sprintf(q, "main.n_"+s.spec.Name, "value", ", rowid"))
					plain := rowsOf(t, db, fmt.Sprintf(q, "f."+s.spec.Name, "+value", ", rowid"))
					if !slices.Equal(got, plain) || !slices.Equal(noNegZero(got), want) {
						t.Fatalf("pass %d %s %v chunks %v:\n%s\ncells:  %v\n+value: %v\nnative: %v", pass, s.spec.DType,
							s.spec.Shape, s.spec.ChunkShape, fmt.Sprintf(q, "T", "value", ""), got, plain, want)
					}
					sess.TakeScans()
				}
			}
		}
		if skipped == 0 {
			t.Errorf("round %d: no chunk skipped in %d scans", round, topks)
		}
	}
}

// writeTopkRamp writes a 1-d f32 array of n elements in chunks of c whose
// values are their indices.
func writeTopkRamp(t testing.TB, n, c int64) string {
	path := filepath.Join(t.TempDir(), "ramp.tet")
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.AddDataset(tetcore.DatasetSpec{Name: "r", DType: tetcore.F32, Shape: []int64{n}, ChunkShape: []int64{c}}); err != nil {
		t.Fatal(err)
	}
	data := make([]byte, 4*n)
	for i := int64(0); i < n; i++ {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(float32(i)))
	}
	if err := w.WriteDataset(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestTopK_skipsChunksOnceStatisticsExist: the first top-k reads every
// chunk (and keeps their statistics), the second only those that can
// hold a result row.
func TestTopK_skipsChunksOnceStatisticsExist(t *testing.T) {
	db, sess := openDB(t, map[string]string{"x": writeTopkRamp(t, 1000, 100)})
	q := "SELECT rowid, value FROM x.r ORDER BY value DESC LIMIT 3"
	first := rowsOf(t, db, q)
	if s := sess.TakeScans()[0]; s.ChunksDecoded != 10 || s.ChunksSkipped != 0 || s.Rows != 3 {
		t.Fatalf("first query: %+v", s)
	}
	second := rowsOf(t, db, q)
	if s := sess.TakeScans()[0]; s.ChunksDecoded != 1 || s.ChunksSkipped != 9 {
		t.Fatalf("second query: %+v", s)
	}
	want := []string{"999|999", "998|998", "997|997"}
	if !slices.Equal(first, want) || !slices.Equal(second, want) {
		t.Fatalf("got %v then %v, want %v", first, second, want)
	}
	// Ascending with an offset and a rowid range.
	got := rowsOf(t, db, "SELECT rowid, value FROM x.r WHERE rowid >= 1 ORDER BY value LIMIT 2 OFFSET 1")
	if s := sess.TakeScans()[0]; s.ChunksDecoded != 1 || s.ChunksSkipped != 9 {
		t.Fatalf("ascending: %+v", s)
	}
	want = rowsOf(t, db, "SELECT rowid, value FROM x.r WHERE rowid >= 1 ORDER BY +value, rowid LIMIT 2 OFFSET 1")
	if !slices.Equal(got, want) {
		t.Fatalf("ascending: %v, want %v", got, want)
	}
}

// TestTopK_fallbacks: ORDER BY forms and LIMITs the top-k does not take
// are planned as before (SQLite sorts), with the same rows.
func TestTopK_fallbacks(t *testing.T) {
	db, sess := openDB(t, map[string]string{"x": writeTopkRamp(t, 1000, 100)})
	for _, q := range []string{
		"SELECT value FROM x.r ORDER BY value LIMIT 2000000",
		"SELECT value FROM x.r ORDER BY value, d0 DESC LIMIT 3",
		"SELECT value FROM x.r ORDER BY value, rowid DESC LIMIT 3",
		"SELECT value FROM x.r ORDER BY d0, value LIMIT 3",
		"SELECT value FROM x.r ORDER BY value",
		"SELECT value FROM x.r WHERE value > 3 ORDER BY value LIMIT 3",
		"SELECT value FROM x.r ORDER BY value NULLS LAST LIMIT 3",
		"SELECT value FROM x.r ORDER BY value COLLATE NOCASE LIMIT 3",
		"SELECT value FROM x.r ORDER BY -value LIMIT 3",
	} {
		if isTopK(t, db, q) || !strings.Contains(queryPlan(t, db, q), "TEMP B-TREE FOR ORDER BY") {
			t.Errorf("%s: planned as a top-k:\n%s", q, queryPlan(t, db, q))
		}
	}
	for _, q := range []string{
		"SELECT value FROM x.r ORDER BY value DESC LIMIT 1000000",
		"SELECT value FROM x.r ORDER BY value, rowid LIMIT 3",
		"SELECT value FROM x.r ORDER BY value LIMIT ?",
		"SELECT value FROM x.r ORDER BY value LIMIT -1", // the whole selection, within the memory limit
	} {
		if !isTopK(t, db, q, 3) || strings.Contains(queryPlan(t, db, q, 3), "TEMP B-TREE") {
			t.Errorf("%s: not planned as a top-k:\n%s", q, queryPlan(t, db, q, 3))
		}
	}
	// SQLite plans with a bound LIMIT's value.
	if q := "SELECT value FROM x.r ORDER BY value LIMIT ?"; isTopK(t, db, q, 2000000) {
		t.Errorf("%s with 2000000: planned as a top-k", q)
	}
	got := rowsOf(t, db, "SELECT value FROM x.r ORDER BY value DESC LIMIT ? OFFSET ?", 2, 1)
	if !slices.Equal(got, []string{"998", "997"}) {
		t.Errorf("bound LIMIT and OFFSET: %v", got)
	}
	// The heap is checked against the memory limit when the query runs.
	sess.MemLimit = 4000
	sess.TakeError()
	_, err := db.Query("SELECT value FROM x.r ORDER BY value LIMIT ?", 900)
	if err == nil || !strings.Contains(err.Error(), "ORDER BY value LIMIT needs 21.1 KiB for 900 rows") || !errors.Is(sess.TakeError(), vtab.ErrMemLimit) {
		t.Errorf("LIMIT 900 under a 4000-byte limit: %v", err)
	}
	if got := rowsOf(t, db, "SELECT value FROM x.r ORDER BY value LIMIT ?", 2); !slices.Equal(got, []string{"0", "1"}) {
		t.Errorf("LIMIT 2 under a 4000-byte limit: %v", got)
	}
}

// noNegZero renders -0 as 0 in rows: a native REAL column stores -0.0 as
// the integer 0, the cells table emits -0.0 as it is.
func noNegZero(rows []string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		f := strings.Split(r, "|")
		for j := range f {
			if f[j] == "-0" {
				f[j] = "0"
			}
		}
		out[i] = strings.Join(f, "|")
	}
	return out
}

// TestTopK_pagesUnderMemLimit: a LIMIT SQLite cannot see while planning
// (here -1, or a label term the plan cannot honour exactly) gets rows in
// pages the memory limit can hold, each page one pass over the chunks
// that can hold its rows; the rows are those of SQLite's sort.
func TestTopK_pagesUnderMemLimit(t *testing.T) {
	db, sess := openDB(t, map[string]string{"x": writeTopkRamp(t, 5000, 100)})
	sess.MemLimit = 40000 // about 1600 rows a page
	for _, q := range []string{
		"SELECT rowid, value FROM x.r ORDER BY value DESC LIMIT -1",
		"SELECT rowid, value FROM x.r ORDER BY value DESC LIMIT -1 OFFSET 2500",
		"SELECT rowid, value FROM x.r WHERE d0 >= 1000 ORDER BY value LIMIT -1 OFFSET 10",
		"SELECT rowid, value FROM x.r WHERE rowid % 3 = 0 ORDER BY value DESC LIMIT 2000",
	} {
		sess.TakeScans()
		got := rowsOf(t, db, q)
		scans := sess.TakeScans()
		want := rowsOf(t, db, strings.Replace(strings.Replace(q, "ORDER BY value", "ORDER BY +value", 1), " LIMIT", ", rowid LIMIT", 1))
		if !slices.Equal(got, want) || len(got) == 0 {
			t.Fatalf("%s: %d rows, want %d", q, len(got), len(want))
		}
		// Later pages skip the chunks that lie wholly before them.
		if strings.Contains(q, "LIMIT -1") && (!isTopK(t, db, q) || scans[0].ChunksSkipped == 0) {
			t.Errorf("%s: top-k %v, stats %+v: want several pages", q, isTopK(t, db, q), scans[0])
		}
	}
}

// TestTopK_notNull: "value IS NOT NULL" is consumed by a top-k (NaN
// elements left out), and chunks holding NaN are then bounded by their
// min, not by NULL: the second query reads one chunk.
func TestTopK_notNull(t *testing.T) {
	db, sess := openDB(t, map[string]string{"demo": "../testdata/demo.tet"})
	q := "SELECT rowid, value FROM demo.temperature WHERE value IS NOT NULL ORDER BY value LIMIT 3"
	if !isTopK(t, db, q) || strings.Contains(queryPlan(t, db, q), "B-TREE") {
		t.Fatalf("not a top-k:\n%s", queryPlan(t, db, q))
	}
	want := rowsOf(t, db, "SELECT rowid, value FROM demo.temperature WHERE value IS NOT NULL ORDER BY +value, rowid LIMIT 3")
	sess.TakeScans()
	for pass, chunks := range []int64{24, 1} {
		got := rowsOf(t, db, q)
		if s := sess.TakeScans()[0]; !slices.Equal(got, want) || s.ChunksDecoded != chunks {
			t.Fatalf("pass %d: %v (want %v), stats %+v", pass, got, want, s)
		}
	}
}
