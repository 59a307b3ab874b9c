package tetsql_test

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/tetcore"
)

// routeSet is one dataset of the routing test's file.
type routeSet struct {
	name   string
	dtype  tetcore.DType
	shape  []int64
	labels []int // per axis: 0 none, 1 TEXT labels, 2 numeric labels (descending REALs), 3 repeated TEXT labels
}

// writeRouteFile writes 3-d datasets of several dtypes with random
// values (NaN and ±Inf among the floats), chunks that do not divide the
// shape, and date-like labels on some axes.
func writeRouteFile(t *testing.T, rng *rand.Rand, sets []routeSet) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "r.tet")
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sets {
		spec := tetcore.DatasetSpec{Name: s.name, DType: s.dtype, Shape: s.shape, Codec: tetcore.CodecZstd,
			ChunkShape: []int64{3, 4, 5}, DimNames: []string{"time", "lat", "lon"}, Labels: make([][]string, 3)}
		for a, kind := range s.labels {
			switch kind {
			case 1:
				spec.Labels[a] = gridLabels(fmt.Sprintf("L%d-", a), s.shape[a])
			case 3: // TEXT labels that repeat: GROUP BY the label is not GROUP BY the dim
				spec.Labels[a] = make([]string, s.shape[a])
				for i := range spec.Labels[a] {
					spec.Labels[a][i] = fmt.Sprintf("L%d-%04d", a, i/2)
				}
			case 2:
				spec.Labels[a] = make([]string, s.shape[a])
				for i := range spec.Labels[a] {
					spec.Labels[a][i] = fmt.Sprint(90 - 1.5*float64(i))
				}
			}
		}
		if err := w.AddDataset(spec); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range sets {
		n := s.shape[0] * s.shape[1] * s.shape[2]
		size := int64(s.dtype.Size())
		data := make([]byte, n*size)
		for i := range n {
			putValue(data[i*size:], s.dtype, rng)
		}
		if err := w.WriteDataset(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// putValue writes a random element: small integers (so that sums and
// group values collide), and for floats also NaN and ±Inf now and then.
func putValue(b []byte, dt tetcore.DType, rng *rand.Rand) {
	v := float64(rng.IntN(41) - 20)
	switch dt {
	case tetcore.F32, tetcore.F64:
		switch rng.IntN(30) {
		case 0:
			v = math.NaN()
		case 1:
			v = math.Inf(1 - 2*rng.IntN(2))
		default:
			v += rng.Float64()
		}
		if dt == tetcore.F32 {
			binary.LittleEndian.PutUint32(b, math.Float32bits(float32(v)))
		} else {
			binary.LittleEndian.PutUint64(b, math.Float64bits(v))
		}
	case tetcore.I16:
		binary.LittleEndian.PutUint16(b, uint16(int16(v)*1000))
	case tetcore.I32:
		binary.LittleEndian.PutUint32(b, uint32(int32(v)*100000))
	case tetcore.U8:
		b[0] = uint8(v + 20)
	}
}

// routeQuery makes a random aggregate query that the rewrite takes.
func routeQuery(rng *rand.Rand, s routeSet, valueTerms bool) string {
	dims := []string{"time", "lat", "lon"}
	var group []string
	for a, d := range dims {
		if rng.IntN(3) == 0 {
			group = append(group, d)
			if s.labels[a] != 0 && rng.IntN(2) == 0 {
				group = append(group, d+"_label")
			}
		}
	}
	var items, gcols []string
	for _, g := range group {
		items = append(items, g)
		if !strings.HasSuffix(g, "_label") {
			gcols = append(gcols, g)
		}
	}
	for i, g := range gcols {
		a := slices.Index(dims, g)
		if (s.labels[a] == 1 || s.labels[a] == 3) && rng.IntN(2) == 0 {
			gcols[i] = g + "_label" // by its label: the same groups where the labels are distinct
		}
	}
	aggs := []string{"count(*)", "count(value)", "avg(value)", "min(value)", "max(value)", "sum(value)", "round(avg(value), 2) AS r", "max(value) - min(value)",
		"count(*) AS count", "min(value) AS max"} // aliases named like _agg columns: left as written
	for range 1 + rng.IntN(3) {
		items = append(items, aggs[rng.IntN(len(aggs))])
	}
	q := "SELECT " + strings.Join(items, ", ") + " FROM " + s.name
	var terms []string
	for range rng.IntN(4) {
		a := rng.IntN(3)
		col := dims[a]
		if s.labels[a] != 0 && rng.IntN(3) == 0 {
			col += "_label"
		} else if valueTerms && rng.IntN(4) == 0 {
			col = "value"
		}
		lit := func() string {
			if strings.HasSuffix(col, "_label") && (s.labels[a] == 1 || s.labels[a] == 3) {
				return fmt.Sprintf("'L%d-%04d'", a, rng.IntN(int(s.shape[a])+2)-1)
			}
			if strings.HasSuffix(col, "_label") {
				v := 90 - 0.75*float64(rng.IntN(2*int(s.shape[a])+4)-2)
				if rng.IntN(4) == 0 {
					return fmt.Sprintf("'%v'", v)
				}
				return fmt.Sprint(v)
			}
			n := rng.IntN(int(s.shape[a])+4) - 2
			if col == "value" {
				n = rng.IntN(41) - 20
			}
			if rng.IntN(5) == 0 {
				return fmt.Sprintf("'%d'", n)
			}
			return fmt.Sprint(n)
		}
		switch rng.IntN(4) {
		case 0:
			terms = append(terms, fmt.Sprintf("%s BETWEEN %s AND %s", col, lit(), lit()))
		case 1:
			terms = append(terms, fmt.Sprintf("%s IN (%s, %s)", col, lit(), lit()))
		default:
			ops := []string{"=", "<", "<=", ">", ">="}
			terms = append(terms, fmt.Sprintf("%s %s %s", col, ops[rng.IntN(len(ops))], lit()))
		}
	}
	if len(terms) > 0 {
		q += " WHERE " + strings.Join(terms, " AND ")
	}
	if len(gcols) > 0 {
		q += " GROUP BY " + strings.Join(gcols, ", ")
		switch {
		case slices.Contains(items, "count(*) AS count") && rng.IntN(2) == 0:
			q += fmt.Sprintf(" HAVING count > %d", rng.IntN(6)) // the alias, in the original
		case slices.Contains(items, "min(value) AS max") && rng.IntN(2) == 0:
			q += " HAVING max > 0"
		case rng.IntN(3) == 0:
			q += fmt.Sprintf(" HAVING count(*) > %d", rng.IntN(6))
		}
		q += " ORDER BY " + strings.Join(gcols, ", ")
		if rng.IntN(3) == 0 {
			q += fmt.Sprintf(" LIMIT %d", 1+rng.IntN(5))
		}
	}
	return q
}

// TestAggRewrite_differential runs random aggregate queries with the
// rewrite onto _agg and without it (row by row through SQLite) and
// compares the results: the same rows, columns and names, counts and
// extremes exactly, sums and means to 1e-12 relative (the two add in
// different orders).
func TestAggRewrite_differential(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 4))
	sets := []routeSet{
		{"f", tetcore.F32, []int64{7, 9, 11}, []int{1, 2, 1}},
		{"d", tetcore.F64, []int64{5, 8, 6}, []int{0, 2, 0}},
		{"s", tetcore.I16, []int64{4, 9, 10}, []int{1, 1, 2}},
		{"i", tetcore.I32, []int64{6, 5, 7}, []int{0, 0, 0}},
		{"b", tetcore.U8, []int64{3, 4, 12}, []int{0, 0, 1}},
		{"r", tetcore.F32, []int64{6, 4, 9}, []int{3, 0, 3}},
	}
	path := writeRouteFile(t, rng, sets)
	_, on := openConn(t, path)
	_, off := openConn(t, path+"?agg_rewrite=false")
	rewritten, withValue, byLabel := 0, 0, 0
	n := 400
	if testing.Short() {
		n = 100
	}
	for range n {
		s := sets[rng.IntN(len(sets))]
		q := routeQuery(rng, s, true)
		got, gotCols := queryAll(t, on, q)
		want, wantCols := queryAll(t, off, q)
		if strings.Join(gotCols, "|") != strings.Join(wantCols, "|") {
			t.Fatalf("%s\ncolumns %q, want %q", q, gotCols, wantCols)
		}
		if msg := diffRows(got, want); msg != "" {
			t.Fatalf("%s\n%s\nrewritten: %v\nas written: %v", q, msg, got, want)
		}
		if aggScanned(t, on) {
			rewritten++
			if strings.Contains(q, "value BETWEEN") || strings.Contains(q, "value >") || strings.Contains(q, "value <") || strings.Contains(q, "value =") {
				withValue++
			}
			if _, g, ok := strings.Cut(q, " GROUP BY "); ok && strings.Contains(strings.Split(g, " ORDER BY ")[0], "_label") {
				byLabel++
			}
		}
	}
	if rewritten < n/2 || withValue < n/20 || byLabel < n/50 {
		t.Errorf("only %d of %d queries went to _agg, %d of them with value terms, %d grouped by a label", rewritten, n, withValue, byLabel)
	}
}

// aggScanned reports whether the last statement on conn scanned an _agg table.
func aggScanned(t *testing.T, conn *sql.Conn) bool {
	t.Helper()
	var found bool
	err := conn.Raw(func(dc any) error {
		for _, s := range dc.(*tetsql.Conn).Scans() {
			found = found || strings.HasSuffix(s.Table, "_agg")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

func queryAll(t *testing.T, conn *sql.Conn, q string) ([][]any, []string) {
	t.Helper()
	rows, err := conn.QueryContext(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, vals)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return out, cols
}

// diffRows compares results: equal types, integers and text exactly,
// floats to 1e-12 relative.
func diffRows(got, want [][]any) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d rows, want %d", len(got), len(want))
	}
	for i := range got {
		for j := range got[i] {
			g, w := got[i][j], want[i][j]
			gf, gok := g.(float64)
			wf, wok := w.(float64)
			switch {
			case gok && wok:
				if gf != wf && !(math.IsNaN(gf) && math.IsNaN(wf)) &&
					math.Abs(gf-wf) > 1e-12*math.Max(math.Abs(gf), math.Abs(wf)) {
					return fmt.Sprintf("row %d col %d: %v, want %v", i, j, g, w)
				}
			case fmt.Sprintf("%T %v", g, g) != fmt.Sprintf("%T %v", w, w):
				return fmt.Sprintf("row %d col %d: %T %v, want %T %v", i, j, g, g, w, w)
			}
		}
	}
	return ""
}

// TestAggRewrite_followsSchema: a rewrite cached for a statement is
// forgotten when a temp object starts shadowing the table it named.
func TestAggRewrite_followsSchema(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	path := writeRouteFile(t, rng, []routeSet{{"f", tetcore.F32, []int64{4, 4, 5}, []int{0, 0, 0}}})
	_, conn := openConn(t, path)
	ctx := context.Background()
	var n int64
	for _, want := range []int64{80, 1} {
		if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM f").Scan(&n); err != nil || n != want {
			t.Fatalf("count(*) = %d (%v), want %d", n, err, want)
		}
		if want == 80 {
			if !aggScanned(t, conn) {
				t.Fatal("count(*) over the cells table did not go to _agg")
			}
			if _, err := conn.ExecContext(ctx, "CREATE TEMP VIEW f AS SELECT 1 AS value"); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestAggRewrite_safeMode: a safe connection gets the rewrite (the
// catalog is tetsql's own SQL), and a statement safe mode refuses is
// still refused.
func TestAggRewrite_safeMode(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	path := writeRouteFile(t, rng, []routeSet{{"f", tetcore.F32, []int64{4, 4, 5}, []int{1, 0, 0}}})
	_, conn := openConn(t, path+"?safe=true")
	ctx := context.Background()
	var n int64
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM f WHERE time < 2").Scan(&n); err != nil || n != 40 {
		t.Fatalf("count(*) = %d (%v), want 40", n, err)
	}
	if !aggScanned(t, conn) {
		t.Error("a safe connection did not get the _agg rewrite")
	}
	if _, err := conn.ExecContext(ctx, "ATTACH ':memory:' AS m2"); !errors.Is(err, tetsql.ErrNotAllowed) {
		t.Errorf("ATTACH after a rewrite: %v, want ErrNotAllowed", err)
	}
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM f WHERE time < 3").Scan(&n); err != nil || n != 60 {
		t.Fatalf("count(*) = %d (%v), want 60", n, err)
	}
}
