package vtab_test

import (
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// The native differential: every query runs on the cells (or _agg) table,
// on a plain SQLite table holding the same values with the same declared
// column types, and in the "+col" form that hides every term from the
// planner. All three must give the same rows: WHERE trees with OR, IN,
// BETWEEN over dims, labels, rowid and value, under ORDER BY … LIMIT …
// OFFSET, GROUP BY … LIMIT, DISTINCT … LIMIT and subqueries with LIMIT.

// copyNative creates main.n_<name> with the cells table's columns and
// values (NaN as NULL, rowid = the element's linear index).
func copyNative(t *testing.T, db *sql.DB, s diffDataset) {
	t.Helper()
	sp := s.spec
	cols := []string{}
	names := []string{}
	for _, d := range sp.DimNames {
		cols, names = append(cols, d+" INTEGER"), append(names, d)
	}
	for a, d := range sp.DimNames {
		if sp.Labels[a] != nil {
			cols, names = append(cols, d+"_label TEXT"), append(names, d+"_label")
		}
	}
	vt := "INTEGER"
	switch sp.DType {
	case tetcore.F16, tetcore.F32:
		vt = "FLOAT"
	case tetcore.F64:
		vt = "REAL"
	}
	cols, names = append(cols, "value "+vt), append(names, "value", "rowid")
	if _, err := db.Exec(fmt.Sprintf("CREATE TABLE main.n_%s(%s)", sp.Name, strings.Join(cols, ", "))); err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	ins, err := tx.Prepare(fmt.Sprintf("INSERT INTO main.n_%s(%s) VALUES (%s)", sp.Name, strings.Join(names, ", "),
		strings.TrimSuffix(strings.Repeat("?, ", len(names)), ", ")))
	if err != nil {
		t.Fatal(err)
	}
	n := int64(1)
	for _, v := range sp.Shape {
		n *= v
	}
	coords := make([]int64, len(sp.Shape))
	for r := int64(0); r < n; r++ {
		rem := r
		for a := len(sp.Shape) - 1; a >= 0; a-- {
			coords[a], rem = rem%sp.Shape[a], rem/sp.Shape[a]
		}
		var args []any
		for _, c := range coords {
			args = append(args, c)
		}
		for a := range sp.Shape {
			if sp.Labels[a] != nil {
				args = append(args, sp.Labels[a][coords[a]])
			}
		}
		args = append(args, elementValue(sp.DType, s.data, r), r)
		if _, err := ins.Exec(args...); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// elementValue is what the cells table returns for element r.
func elementValue(dt tetcore.DType, data []byte, r int64) any {
	switch {
	case dt.IsFloat():
		if f := dt.Float64(data, int(r)); f == f {
			return f
		}
		return nil
	case dt == tetcore.U64 && dt.Uint64(data, int(r)) > math.MaxInt64:
		return float64(dt.Uint64(data, int(r)))
	}
	return dt.Int64(data, int(r))
}

// whereGen writes random WHERE trees; col renders a column reference
// (plain, or with the unary + that hides it from the planner).
type whereGen struct {
	rng  *rand.Rand
	sp   tetcore.DatasetSpec
	axes []int // axes terms may use (nil: all)
	agg  bool  // no rowid or value terms
}

func (g *whereGen) tree(depth int, col func(string) string) string {
	if depth > 0 && g.rng.IntN(3) > 0 {
		op := " AND "
		if g.rng.IntN(2) == 0 {
			op = " OR "
		}
		return "(" + g.tree(depth-1, col) + op + g.tree(depth-1, col) + ")"
	}
	return g.leaf(col)
}

func (g *whereGen) leaf(col func(string) string) string {
	rng, sp := g.rng, g.sp
	a := rng.IntN(len(sp.Shape))
	if g.axes != nil {
		a = g.axes[rng.IntN(len(g.axes))]
	}
	op := sqlOps[rng.IntN(len(sqlOps))]
	k := rng.IntN(12)
	if g.agg && k >= 7 {
		k = rng.IntN(7)
	}
	switch {
	case k < 4 || (k < 7 && sp.Labels[a] == nil): // dim
		num := func() string {
			v := rng.Int64N(sp.Shape[a]+2) - 1
			if rng.IntN(4) == 0 {
				return fmt.Sprintf("%d.5", v)
			}
			return fmt.Sprint(v)
		}
		switch rng.IntN(4) {
		case 0:
			return fmt.Sprintf("%s IN (%s, %s, %s)", col(sp.DimNames[a]), num(), num(), num())
		case 1:
			return fmt.Sprintf("%s BETWEEN %s AND %s", col(sp.DimNames[a]), num(), num())
		}
		return col(sp.DimNames[a]) + " " + op + " " + num()
	case k < 7: // label
		lit := func() string {
			l := sp.Labels[a][rng.IntN(len(sp.Labels[a]))]
			if rng.IntN(4) == 0 {
				l += "x"
			}
			switch k := rng.IntN(6); { // collations the table must leave to SQLite
			case k == 0:
				return "'" + strings.ToLower(l) + "' COLLATE NOCASE"
			case k == 1:
				return "'" + l + "  ' COLLATE RTRIM"
			}
			return "'" + l + "'"
		}
		c := col(sp.DimNames[a] + "_label")
		if rng.IntN(3) == 0 {
			return fmt.Sprintf("%s IN (%s, %s)", c, lit(), lit())
		}
		return c + " " + op + " " + lit()
	case k < 9: // rowid
		n := int64(1)
		for _, v := range sp.Shape {
			n *= v
		}
		return fmt.Sprintf("%s %s %d", col("rowid"), op, rng.Int64N(n+2)-1)
	}
	lits := []string{"0", "1", "-1", "100", "-100", "0.5", "1e9", "-1e9", "127", "200"}
	return col("value") + " " + op + " " + lits[rng.IntN(len(lits))]
}

func plainCol(c string) string { return c }

// cellsQueries returns queries over table T (a %[1]s placeholder) with
// WHERE w; the first is the full result, ordered by rowid.
func cellsQueries(rng *rand.Rand, sp tetcore.DatasetSpec, w string) []string {
	dims := strings.Join(sp.DimNames, ", ")
	first, last := sp.DimNames[0], sp.DimNames[len(sp.DimNames)-1]
	n, m := 1+rng.IntN(6), rng.IntN(4)
	return []string{
		fmt.Sprintf("SELECT %s, rowid, value FROM %%[1]s WHERE %s ORDER BY rowid", dims, w),
		fmt.Sprintf("SELECT %s, rowid, value FROM %%[1]s WHERE %s ORDER BY value DESC, rowid LIMIT %d", dims, w, n),
		fmt.Sprintf("SELECT %s, rowid, value FROM %%[1]s WHERE %s ORDER BY value, rowid LIMIT %d OFFSET %d", dims, w, n, m),
		fmt.Sprintf("SELECT rowid, value FROM %%[1]s WHERE %s ORDER BY %s DESC, rowid DESC LIMIT %d", w, last, n),
		fmt.Sprintf("SELECT %s, count(*), min(value), max(value) FROM %%[1]s WHERE %s GROUP BY %s ORDER BY %s LIMIT %d", first, w, first, first, n),
		fmt.Sprintf("SELECT count(*) FROM (SELECT %s FROM %%[1]s WHERE %s GROUP BY %s LIMIT %d OFFSET %d)", last, w, last, n, m),
		fmt.Sprintf("SELECT DISTINCT %s FROM %%[1]s WHERE %s ORDER BY %s DESC LIMIT %d", first, w, first, n),
		fmt.Sprintf("SELECT count(*) FROM (SELECT DISTINCT %s FROM %%[1]s WHERE %s LIMIT %d)", last, w, n),
		fmt.Sprintf("SELECT count(*), min(v), max(v) FROM (SELECT value AS v FROM %%[1]s WHERE %s ORDER BY value, rowid LIMIT %d)", w, n),
		fmt.Sprintf("SELECT rowid, value FROM %%[1]s WHERE rowid IN (SELECT rowid FROM %%[1]s WHERE %s ORDER BY value DESC, rowid LIMIT %d) ORDER BY rowid", w, n),
		fmt.Sprintf("SELECT count(*) FROM (SELECT rowid FROM %%[1]s WHERE %s LIMIT %d OFFSET %d)", w, n, m),
	}
}

func TestNativeDifferential_cells(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 12))
	for round := 0; round < 2; round++ {
		path, sets := makeDiffFile(t, rng)
		db, _ := openDB(t, map[string]string{"f": path})
		for _, s := range sets {
			copyNative(t, db, s)
		}
		for q := 0; q < 90; q++ {
			s := sets[rng.IntN(len(sets))]
			g := &whereGen{rng: rng, sp: s.spec}
			seed := rng.Uint64()
			pushed := g.tree(2, plainCol)
			hidden := hide(pushed, s.spec)
			qs := cellsQueries(rand.New(rand.NewPCG(seed, 2)), s.spec, pushed)
			hs := cellsQueries(rand.New(rand.NewPCG(seed, 2)), s.spec, hidden)
			for i := range qs {
				want := rowsOf(t, db, fmt.Sprintf(qs[i], "main.n_"+s.spec.Name))
				got := rowsOf(t, db, fmt.Sprintf(qs[i], "f."+s.spec.Name))
				gotHidden := rowsOf(t, db, fmt.Sprintf(hs[i], "f."+s.spec.Name))
				if !slices.Equal(got, want) || !slices.Equal(gotHidden, want) {
					t.Fatalf("%s %v chunks %v:\n%s\ncells:  %v\n+col:   %v\nnative: %v", s.spec.DType, s.spec.Shape,
						s.spec.ChunkShape, fmt.Sprintf(qs[i], "T"), got, gotHidden, want)
				}
			}
		}
	}
}

// hide puts a unary + before every column reference of a generated
// WHERE tree (dims, labels, rowid, value), which keeps SQLite from
// offering the term to the table.
func hide(w string, sp tetcore.DatasetSpec) string {
	names := []string{"rowid", "value"}
	for _, d := range sp.DimNames {
		names = append(names, d+"_label", d)
	}
	var b strings.Builder
	for i := 0; i < len(w); {
		matched := false
		if i == 0 || !isIdent(w[i-1]) {
			for _, n := range names {
				if strings.HasPrefix(w[i:], n) && (i+len(n) == len(w) || !isIdent(w[i+len(n)])) {
					b.WriteString("+" + n)
					i += len(n)
					matched = true
					break
				}
			}
		}
		if !matched {
			b.WriteByte(w[i])
			i++
		}
	}
	return b.String()
}

func isIdent(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '\''
}

func TestOrderByLimit_demoTopValues(t *testing.T) {
	db, _ := openDB(t, map[string]string{"demo": "../testdata/demo.tet"})
	got := rowsOf(t, db, "SELECT value FROM demo.temperature ORDER BY value DESC LIMIT 3")
	want := rowsOf(t, db, "SELECT value FROM demo.temperature ORDER BY +value DESC, rowid LIMIT 3 OFFSET 0")
	top := rowsOf(t, db, "SELECT max(value) FROM demo.temperature")
	if !slices.Equal(got, want) || len(got) != 3 || got[0] != top[0] {
		t.Fatalf("ORDER BY value DESC LIMIT 3 = %v; want %v (max %v)", got, want, top)
	}
}
