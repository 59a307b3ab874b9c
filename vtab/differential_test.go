package vtab_test

import (
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
	"github.com/tetsql/tetsql/vtab"
)

// diffDataset is a generated dataset with its values kept for brute force.
type diffDataset struct {
	spec tetcore.DatasetSpec
	data []byte
}

// writeSets writes the datasets to a file called name in a temporary
// directory and returns its path.
func writeSets(t testing.TB, name string, sets []diffDataset) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sets {
		if err := w.AddDataset(s.spec); err != nil {
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
	return path
}

func makeDiffFile(t *testing.T, rng *rand.Rand) (string, []diffDataset) {
	var sets []diffDataset
	for i, dt := range tetcore.AllDTypes {
		rank := 1 + rng.IntN(4)
		shape, chunk := make([]int64, rank), make([]int64, rank)
		n := int64(1)
		names := make([]string, rank)
		for a := range shape {
			shape[a] = 1 + rng.Int64N(9)
			chunk[a] = 1 + rng.Int64N(shape[a]+1)
			n *= shape[a]
			names[a] = fmt.Sprintf("k%d", a)
		}
		data := make([]byte, n*int64(dt.Size()))
		for j := range data {
			data[j] = byte(rng.IntN(256))
		}
		spec := tetcore.DatasetSpec{Name: fmt.Sprintf("ds%d", i), DType: dt, Shape: shape, ChunkShape: chunk,
			Codec: tetcore.Codec(rng.IntN(2)), DimNames: names, Labels: make([][]string, rank)}
		for a := range shape {
			if rng.IntN(2) == 0 {
				continue
			}
			labels := make([]string, shape[a])
			for j := range labels {
				if a%2 == 0 {
					labels[j] = fmt.Sprintf("L%02d", j) // sorted
				} else {
					labels[j] = fmt.Sprintf("Z%02d", int(shape[a])-j) // descending
				}
			}
			spec.Labels[a] = labels
		}
		sets = append(sets, diffDataset{spec, data})
	}
	path := writeSets(t, "diff.tet", sets)
	return path, sets
}

// term is one random WHERE term with a Go predicate over (coords, rowid).
type term struct {
	sql, plain string
	pred       func(c []int64, rowid int64) bool
}

var sqlOps = []string{"=", "<", "<=", ">", ">="}

func cmpInt(op string, a int64, b float64) bool {
	x := float64(a)
	switch op {
	case "=":
		return x == b
	case "<":
		return x < b
	case "<=":
		return x <= b
	case ">":
		return x > b
	}
	return x >= b
}

func randomTerm(rng *rand.Rand, s tetcore.DatasetSpec) term {
	a := rng.IntN(len(s.Shape))
	name := s.DimNames[a]
	op := sqlOps[rng.IntN(len(sqlOps))]
	switch k := rng.IntN(10); {
	case k < 5: // dim with an integer or fractional bound
		v := float64(rng.Int64N(s.Shape[a]+2) - 1)
		if rng.IntN(3) == 0 {
			v += 0.5
		}
		lit := fmt.Sprint(v)
		return term{name + op + lit, "+" + name + op + lit, func(c []int64, _ int64) bool { return cmpInt(op, c[a], v) }}
	case k < 6: // IN list
		x, y := rng.Int64N(s.Shape[a]), rng.Int64N(s.Shape[a]+3)
		lit := fmt.Sprintf(" IN (%d, %d)", x, y)
		return term{name + lit, "+" + name + lit, func(c []int64, _ int64) bool { return c[a] == x || c[a] == y }}
	case k < 8 && s.Labels[a] != nil: // label
		labels := s.Labels[a]
		l := labels[rng.IntN(len(labels))]
		if rng.IntN(4) == 0 {
			l += "x" // between labels
		}
		col := name + "_label"
		return term{col + op + "'" + l + "'", "+" + col + op + "'" + l + "'", func(c []int64, _ int64) bool {
			return cmpStr(op, labels[c[a]], l)
		}}
	default: // rowid
		n := int64(1)
		for _, v := range s.Shape {
			n *= v
		}
		v := float64(rng.Int64N(n+2) - 1)
		lit := fmt.Sprint(v)
		return term{"rowid" + op + lit, "+rowid" + op + lit, func(_ []int64, r int64) bool { return cmpInt(op, r, v) }}
	}
}

func cmpStr(op, a, b string) bool {
	switch op {
	case "=":
		return a == b
	case "<":
		return a < b
	case "<=":
		return a <= b
	case ">":
		return a > b
	}
	return a >= b
}

// bruteForce renders the rows "coords…|value" matching every term.
func bruteForce(s diffDataset, terms []term) []string {
	shape := s.spec.Shape
	n := int64(1)
	for _, v := range shape {
		n *= v
	}
	coords := make([]int64, len(shape))
	var out []string
	for r := int64(0); r < n; r++ {
		rem := r
		for a := len(shape) - 1; a >= 0; a-- {
			coords[a] = rem % shape[a]
			rem /= shape[a]
		}
		ok := true
		for _, tm := range terms {
			ok = ok && tm.pred(coords, r)
		}
		if ok {
			out = append(out, renderRow(coords, r, s.spec.DType, s.data))
		}
	}
	return out
}

func renderRow(coords []int64, r int64, dt tetcore.DType, data []byte) string {
	var v any
	switch {
	case dt.IsFloat():
		f := dt.Float64(data, int(r))
		if f != f {
			v = nil
		} else {
			v = f
		}
	case dt == tetcore.U64 && dt.Uint64(data, int(r)) > math.MaxInt64:
		v = float64(dt.Uint64(data, int(r)))
	default:
		v = dt.Int64(data, int(r))
	}
	parts := make([]string, 0, len(coords)+2)
	for _, c := range coords {
		parts = append(parts, fmt.Sprint(c))
	}
	return strings.Join(append(parts, fmt.Sprint(r), fmt.Sprint(v)), "|")
}

func queryRows(t *testing.T, db *sql.DB, s tetcore.DatasetSpec, where string) []string {
	cols := strings.Join(s.DimNames, ", ")
	got := rowsOf(t, db, fmt.Sprintf("SELECT %s, rowid, value FROM f.%s WHERE %s", cols, s.Name, where))
	for i, g := range got {
		if strings.HasSuffix(g, "|<nil>") {
			got[i] = strings.TrimSuffix(g, "<nil>") + "<nil>"
		}
	}
	slices.SortFunc(got, func(a, b string) int { return rowidOf(a) - rowidOf(b) })
	return got
}

func rowidOf(s string) int {
	p := strings.Split(s, "|")
	var n int
	fmt.Sscan(p[len(p)-2], &n)
	return n
}

func TestDifferential_pushdownMatchesUnprunedAndBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for round := 0; round < 3; round++ {
		path, sets := makeDiffFile(t, rng)
		db, _ := openDB(t, map[string]string{"f": path})
		for q := 0; q < 150; q++ {
			s := sets[rng.IntN(len(sets))]
			var terms []term
			var pushed, plain []string
			for k := 1 + rng.IntN(3); k > 0; k-- {
				tm := randomTerm(rng, s.spec)
				terms = append(terms, tm)
				pushed, plain = append(pushed, tm.sql), append(plain, tm.plain)
			}
			want := strings.Join(bruteForce(s, terms), "\n")
			gotPushed := strings.Join(queryRows(t, db, s.spec, strings.Join(pushed, " AND ")), "\n")
			gotPlain := strings.Join(queryRows(t, db, s.spec, strings.Join(plain, " AND ")), "\n")
			if gotPushed != want || gotPlain != want {
				t.Fatalf("%s (%s %v chunks %v) WHERE %s\npushed:\n%s\nplain:\n%s\nwant:\n%s", s.spec.Name, s.spec.DType,
					s.spec.Shape, s.spec.ChunkShape, strings.Join(pushed, " AND "), gotPushed, gotPlain, want)
			}
		}
	}
}

func TestDifferential_noOmitSameRows(t *testing.T) {
	// With NoOmit SQLite re-checks every term: a cursor that filtered
	// wrongly would lose no rows there, so compare against the omit run.
	rng := rand.New(rand.NewPCG(3, 5))
	path, sets := makeDiffFile(t, rng)
	db, _ := openDB(t, map[string]string{"f": path})
	var queries []string
	var specs []tetcore.DatasetSpec
	for q := 0; q < 60; q++ {
		s := sets[rng.IntN(len(sets))]
		var parts []string
		for k := 1 + rng.IntN(3); k > 0; k-- {
			parts = append(parts, randomTerm(rng, s.spec).sql)
		}
		queries, specs = append(queries, strings.Join(parts, " AND ")), append(specs, s.spec)
	}
	omit := make([]string, len(queries))
	for i, q := range queries {
		omit[i] = strings.Join(queryRows(t, db, specs[i], q), "\n")
	}
	vtab.NoOmit = true
	defer func() { vtab.NoOmit = false }()
	db2, _ := openDB(t, map[string]string{"f": path})
	for i, q := range queries {
		if got := strings.Join(queryRows(t, db2, specs[i], q), "\n"); got != omit[i] {
			t.Fatalf("WHERE %s: omit and no-omit runs differ\n%s\n---\n%s", q, omit[i], got)
		}
	}
}
