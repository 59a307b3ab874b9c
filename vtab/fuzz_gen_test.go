package vtab_test

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tetsql/tetsql/tetcore"
)

// qgen turns bytes into SQL: every choice reads one byte (0 once they run
// out, which always picks the simplest form, so generation terminates).
// Table names are written as @{name}: f.name for tet, main.native_name
// for the native copy.
type qgen struct {
	b     []byte
	i     int
	sets  []*fuzzSet
	metas []*metaTable
}

// fquery is one generated query pair.
type fquery struct {
	tet, native string
	ordered     bool    // a total ORDER BY: compare as sequences
	approx      bool    // aggregates: floats compare with a tolerance
	tol         float64 // absolute tolerance when approx
	agg         bool    // an _agg query (numbers compare across types)
	ungrouped   bool    // _agg without groups: tet may answer no row
}

func (g *qgen) n(k int) int {
	if k <= 1 || g.i >= len(g.b) {
		return 0
	}
	v := int(g.b[g.i])
	g.i++
	return v % k
}

func (g *qgen) pick(xs []string) string { return xs[g.n(len(xs))] }

// fcol is a column of a cells table: a dim, a label, rowid or value.
type fcol struct {
	name string
	kind byte // 'd' dim, 'l' label, 'r' rowid, 'v' value
	axis int
}

func columns(s *fuzzSet) []fcol {
	var cs []fcol
	for a, d := range s.spec.DimNames {
		cs = append(cs, fcol{d, 'd', a})
		if s.labeled(a) {
			cs = append(cs, fcol{d + "_label", 'l', a})
		}
	}
	return append(cs, fcol{"rowid", 'r', 0}, fcol{"value", 'v', 0})
}

var (
	intLits  = []string{"0", "-1", "1", "2", "9223372036854775807", "-9223372036854775808", "9007199254740993", "9007199254740992", "-9007199254740993", "4611686018427387904", "18446744073709551615"}
	realLits = []string{"0.5", "2.5", "-0.0", "1e300", "-1e300", "9007199254740992.0", "9223372036854775807.0", "9223372036854777856.0", "1.8446744073709552e19", "3.0", "1.5", "-2.0", "1e999", "-1e999"}
	textLits = []string{"' 3'", "'3'", "'3 '", "'1e400'", "'-inf'", "'inf'", "'abc'", "''", "'2024-01-04'", "'2024-01-07'", "'0x10'", "'3.0'", "'-1'", "'10'", "'9223372036854775808'", "'1e3'", "'9007199254740993'", "'oslo'", "'OSLO'", "'Oslo '", "'c'", "'z'"}
	miscLits = []string{"x'00'", "x''", "NULL", "CAST(' 3' AS INTEGER)", "(1+2)", "-(2)", "'2' || '4'"}
	collates = []string{" COLLATE NOCASE", " COLLATE RTRIM", " COLLATE BINARY"}
)

// natural returns a literal likely to match the column's values.
func (g *qgen) natural(s *fuzzSet, c fcol) string {
	switch c.kind {
	case 'd':
		v := int64(g.n(int(s.spec.Shape[c.axis])+2)) - 1
		if g.n(4) == 0 {
			return fmt.Sprintf("%d.5", v)
		}
		return strconv.FormatInt(v, 10)
	case 'l':
		ls := s.spec.Labels[c.axis]
		l := ls[g.n(len(ls))]
		switch g.n(6) {
		case 0:
			l = strings.ToUpper(l)
		case 1:
			l += " "
		case 2:
			l += "x"
		}
		return "'" + l + "'"
	case 'r':
		return strconv.Itoa(g.n(len(s.vals)+2) - 1)
	}
	return valueLit(sqlValue(s.vals[g.n(len(s.vals))]), s)
}

// valueLit writes a stored value as an SQL literal that parses back exactly.
func valueLit(v any, s *fuzzSet) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		if s.spec.DType == tetcore.F32 {
			x = float64(float32(x))
		}
		switch {
		case math.IsInf(x, 1):
			return "1e999"
		case math.IsInf(x, -1):
			return "-1e999"
		}
		t := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(t, ".e") {
			t += ".0"
		}
		return t
	}
	return "NULL"
}

// lit returns an argument of any type for a comparison with c.
func (g *qgen) lit(s *fuzzSet, c fcol) string {
	switch g.n(12) {
	case 3:
		return g.pick(intLits)
	case 4:
		return g.pick(realLits)
	case 5, 6:
		return g.pick(textLits)
	case 7:
		return g.pick(miscLits)
	}
	return g.natural(s, c)
}

// term returns one comparison on a column chosen by ok (nil: any).
func (g *qgen) term(s *fuzzSet, alias string, ok func(fcol) bool) string {
	var cs []fcol
	for _, c := range columns(s) {
		if ok == nil || ok(c) {
			cs = append(cs, c)
		}
	}
	c := cs[g.n(len(cs))]
	col := alias + c.name
	switch g.n(8) {
	case 0:
		col = "+" + col
	case 1:
		col += g.pick(collates)
	}
	lit := func() string {
		l := g.lit(s, c)
		if g.n(8) == 0 {
			l += g.pick(collates)
		}
		return l
	}
	switch g.n(15) {
	case 6:
		return col + " BETWEEN " + lit() + " AND " + lit()
	case 7:
		return col + " NOT BETWEEN " + lit() + " AND " + lit()
	case 8, 9:
		not := ""
		if g.n(4) == 0 {
			not = "NOT "
		}
		items := []string{lit()}
		for k := g.n(4); k > 0; k-- {
			items = append(items, lit())
		}
		return col + " " + not + "IN (" + strings.Join(items, ", ") + ")"
	case 10:
		return col + g.pick([]string{" IS NULL", " IS NOT NULL", " NOTNULL"})
	case 11:
		pat := g.pick([]string{"'o%'", "'%3'", "'_'", "'OSLO'", "'2024-01-1%'", "'%'", "'1%'", "'k1_'"})
		return col + g.pick([]string{" LIKE ", " NOT LIKE ", " GLOB "}) + pat
	case 12:
		return col + g.pick([]string{" IS ", " IS NOT "}) + lit()
	case 13:
		return lit() + " " + g.pick(sqlOps) + " " + col
	}
	return col + " " + g.pick([]string{"=", "<", "<=", ">", ">=", "<>", "==", "!="}) + " " + lit()
}

// cond returns a WHERE condition: terms under AND, OR, NOT.
func (g *qgen) cond(s *fuzzSet, alias string, ok func(fcol) bool, depth int) string {
	if depth >= 3 {
		return g.term(s, alias, ok)
	}
	switch g.n(8) {
	case 4:
		return g.cond(s, alias, ok, depth+1) + " AND " + g.cond(s, alias, ok, depth+1)
	case 5, 6:
		return "(" + g.cond(s, alias, ok, depth+1) + " OR " + g.cond(s, alias, ok, depth+1) + ")"
	case 7:
		return "NOT (" + g.cond(s, alias, ok, depth+1) + ")"
	}
	return g.term(s, alias, ok)
}

// expr returns a select-list or ORDER BY expression over one table.
func (g *qgen) expr(s *fuzzSet, alias string) string {
	cs := columns(s)
	c := alias + cs[g.n(len(cs))].name
	switch g.n(10) {
	case 0:
		return c + " * 2"
	case 1:
		return "typeof(" + c + ")"
	case 2:
		return c + " IS NULL"
	case 3:
		return "-" + c
	case 4:
		return c + " || 'x'"
	case 5:
		return "CAST(" + c + " AS TEXT)"
	}
	return c
}

func (g *qgen) selectList(s *fuzzSet, alias string) string {
	if g.n(6) == 0 {
		return "*"
	}
	items := []string{g.expr(s, alias)}
	for k := g.n(4); k > 0; k-- {
		items = append(items, g.expr(s, alias))
	}
	return strings.Join(items, ", ")
}

// orderBy returns ORDER BY keys ending in rowid, a total order.
func (g *qgen) orderBy(s *fuzzSet, alias string) string {
	var keys []string
	for k := g.n(3); k > 0; k-- {
		key := g.expr(s, alias)
		switch g.n(4) {
		case 0:
			key += " DESC"
		case 1:
			key += " COLLATE NOCASE"
		}
		keys = append(keys, key)
	}
	rowid := alias + "rowid"
	if g.n(3) == 0 {
		rowid += " DESC"
	}
	return " ORDER BY " + strings.Join(append(keys, rowid), ", ")
}

func (g *qgen) limit() string {
	l := fmt.Sprintf(" LIMIT %d", g.n(8))
	if g.n(3) == 0 {
		l += fmt.Sprintf(" OFFSET %d", g.n(6))
	}
	return l
}

// aggregate returns an aggregate over value or a column (sum() only
// where no int64 overflow can make it order dependent).
func (g *qgen) aggregate(s *fuzzSet, alias string) string {
	fns := []string{"count(*)", "count(%s)", "total(%s)", "avg(%s)", "min(%s)", "max(%s)", "count(DISTINCT %s)"}
	if !s.bigint {
		fns = append(fns, "sum(%s)")
	}
	f := g.pick(fns)
	if !strings.Contains(f, "%s") {
		return f
	}
	arg := alias + "value"
	if g.n(3) == 0 {
		cs := columns(s)
		arg = alias + cs[g.n(len(cs))].name
	}
	return fmt.Sprintf(f, arg)
}
