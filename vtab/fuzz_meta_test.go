package vtab_test

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"
)

// metaTable is a metadata table with a native copy (main.native_<name>)
// and a few distinct values of each column for literals.
type metaTable struct {
	name    string
	cols    []string
	samples [][]any
}

// metaNames are the metadata tables queried on their own; their dataset
// (or name) column is pushed down, and OR on it makes SQLite scan the
// table more than once (issue 22).
var metaNames = []string{"tet_datasets", "tet_dims", "tet_chunks", "tet_coords", "tet_attrs"}

func loadMeta(t testing.TB, db *sql.DB) []*metaTable {
	var out []*metaTable
	for _, name := range metaNames {
		if name != "tet_dims" { // loadNative copied it already
			if _, err := db.Exec(fmt.Sprintf("CREATE TABLE main.native_%s AS SELECT * FROM f.%s", name, name)); err != nil {
				t.Fatal(err)
			}
		}
		m := &metaTable{name: name}
		rows, err := run(db, "SELECT name FROM pragma_table_info('native_"+name+"')")
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			col := r[0].(string)
			vals, err := run(db, fmt.Sprintf("SELECT DISTINCT %s FROM main.native_%s ORDER BY 1 LIMIT 6", col, name))
			if err != nil {
				t.Fatal(err)
			}
			var s []any
			for _, v := range vals {
				s = append(s, v[0])
			}
			m.cols, m.samples = append(m.cols, col), append(m.samples, s)
		}
		out = append(out, m)
	}
	return out
}

func sqlLit(v any) string {
	switch x := v.(type) {
	case string:
		return "'" + strings.ReplaceAll(x, "'", "''") + "'"
	case []byte:
		return fmt.Sprintf("x'%x'", x)
	case int64:
		return fmt.Sprint(x)
	case float64:
		return valueLit(x, &fuzzSet{})
	}
	return "NULL"
}

// metaTerm compares a column with a sample value or an odd literal.
func (g *qgen) metaTerm(m *metaTable) string {
	c := g.n(len(m.cols))
	if g.n(2) == 0 && (m.cols[0] == "dataset" || m.cols[0] == "name") {
		c = 0 // the pushed-down column
	}
	col := m.cols[c]
	lit := "NULL"
	if s := m.samples[c]; len(s) > 0 {
		lit = sqlLit(s[g.n(len(s))])
	}
	switch g.n(8) {
	case 0:
		lit = strings.ToUpper(lit) + " COLLATE NOCASE"
	case 1:
		lit = g.pick(textLits)
	case 2:
		lit = g.pick(intLits)
	case 3:
		col = "+" + col
	}
	switch g.n(6) {
	case 0:
		return col + " IN (" + lit + ", " + sqlLit(g.pick([]string{"x", "y", "z", "X", "nope"})) + ")"
	case 1:
		return col + " LIKE " + lit
	}
	return col + " " + g.pick([]string{"=", "<", "<=", ">", ">=", "<>"}) + " " + lit
}

func (g *qgen) metaCond(m *metaTable, depth int) string {
	if depth < 2 {
		switch g.n(5) {
		case 1:
			return "(" + g.metaCond(m, depth+1) + " OR " + g.metaCond(m, depth+1) + ")"
		case 2:
			return g.metaCond(m, depth+1) + " AND " + g.metaCond(m, depth+1)
		case 3:
			return "NOT (" + g.metaCond(m, depth+1) + ")"
		}
	}
	return g.metaTerm(m)
}

func (g *qgen) metaQuery() fquery {
	m := g.metas[g.n(len(g.metas))]
	sql := "SELECT * FROM @{" + m.name + "} WHERE " + g.metaCond(m, 0)
	return fquery{tet: render(sql, "f.", ""), native: render(sql, "main.native_", "")}
}
