package vtab_test

import (
	"fmt"
	"strings"
)

// query generates one query pair from the generator's bytes.
func (g *qgen) query() fquery {
	s := g.sets[g.n(len(g.sets))]
	var q fquery
	var sql string
	switch g.n(10) {
	case 0, 1, 2: // plain SELECT, maybe ordered with LIMIT
		sql = "SELECT " + g.selectList(s, "") + " FROM @{" + s.spec.Name + "}" + g.where(s)
		if g.n(2) == 0 {
			sql += g.orderBy(s, "")
			q.ordered = true
			if g.n(2) == 0 {
				sql += g.limit()
			}
		}
	case 3: // DISTINCT, ordered by every selected column
		items := []string{g.expr(s, "")}
		for k := g.n(3); k > 0; k-- {
			items = append(items, g.expr(s, ""))
		}
		var pos []string
		for i := range items {
			p := fmt.Sprint(i + 1)
			if g.n(3) == 0 {
				p += " DESC"
			}
			pos = append(pos, p)
		}
		sql = "SELECT DISTINCT " + strings.Join(items, ", ") + " FROM @{" + s.spec.Name + "}" + g.where(s) +
			" ORDER BY " + strings.Join(pos, ", ") + g.limit()
		q.ordered = true
	case 4: // aggregates without GROUP BY
		items := []string{g.aggregate(s, "")}
		for k := g.n(4); k > 0; k-- {
			items = append(items, g.aggregate(s, ""))
		}
		sql = "SELECT " + strings.Join(items, ", ") + " FROM @{" + s.spec.Name + "}" + g.where(s)
		q.approx = true
	case 5: // GROUP BY keys, ordered by the keys, maybe LIMIT
		cs := columns(s)
		keys := []string{cs[g.n(len(cs)-2)].name}
		if g.n(2) == 0 {
			keys = append(keys, cs[g.n(len(cs))].name)
		}
		items := append([]string{}, keys...)
		for k := 1 + g.n(3); k > 0; k-- {
			items = append(items, g.aggregate(s, ""))
		}
		var pos []string
		for i := range keys {
			pos = append(pos, fmt.Sprint(i+1))
		}
		sql = "SELECT " + strings.Join(items, ", ") + " FROM @{" + s.spec.Name + "}" + g.where(s) +
			" GROUP BY " + strings.Join(keys, ", ")
		if g.n(5) == 0 {
			sql += " HAVING count(*) > 1"
		}
		sql += " ORDER BY " + strings.Join(pos, ", ")
		if g.n(2) == 0 {
			sql += g.limit()
		}
		q.ordered, q.approx = true, true
	case 6: // subqueries with LIMIT
		inner := "FROM @{" + s.spec.Name + "}" + g.where(s) + g.orderBy(s, "") + g.limit()
		switch g.n(4) {
		case 0:
			sql = "SELECT count(*), min(r), max(r), total(v) FROM (SELECT rowid AS r, value AS v " + inner + ")"
			q.approx = true
		case 3: // correlated: the inner table is filtered again per outer row
			cs := columns(s)
			c := cs[g.n(len(cs))].name
			t := "@{" + s.spec.Name + "}"
			sql = fmt.Sprintf("SELECT p.rowid, (SELECT count(*) FROM %s AS q WHERE q.%s %s p.%s AND q.value %s p.value) FROM %s AS p WHERE %s",
				t, c, g.pick(sqlOps), c, g.pick(sqlOps), t, g.optCond(s, "p."))
		case 1:
			sql = "SELECT rowid, value FROM @{" + s.spec.Name + "} WHERE rowid IN (SELECT rowid " + inner + ")"
		default:
			sql = "SELECT rowid, value FROM @{" + s.spec.Name + "} WHERE value >= (SELECT max(value) FROM @{" + s.spec.Name +
				"} WHERE " + g.cond(s, "", nil, 0) + ")"
		}
	case 7: // self join on dims
		a := s.spec.DimNames[g.n(len(s.spec.DimNames))]
		b := s.spec.DimNames[g.n(len(s.spec.DimNames))]
		on := fmt.Sprintf("p.%s = q.%s", a, b)
		if g.n(3) == 0 {
			on = fmt.Sprintf("p.%s %s q.%s + %d", a, g.pick(sqlOps), b, g.n(3))
		}
		t := "@{" + s.spec.Name + "}"
		sql = "SELECT p.rowid, q.rowid, p.value, q.value FROM " + t + " AS p JOIN " + t + " AS q ON " + on +
			" WHERE " + g.optCond(s, "p.") + " AND " + g.optCond(s, "q.")
		if g.n(2) == 0 {
			sql += " ORDER BY p.rowid, q.rowid" + g.limit()
			q.ordered = true
		}
	case 8: // metadata tables alone, or joined with the cells
		if len(g.metas) > 0 && g.n(2) == 0 {
			return g.metaQuery()
		}
		a := g.n(len(s.spec.DimNames))
		ds := "'" + s.spec.Name + "'"
		switch g.n(4) {
		case 0:
			ds = "'" + strings.ToUpper(s.spec.Name) + "' COLLATE NOCASE"
		case 1:
			ds = g.pick([]string{"'x'", "'y'", "'z'"})
		}
		sql = fmt.Sprintf("SELECT p.rowid, m.name, m.size FROM @{%s} AS p JOIN @{tet_dims} AS m ON m.dataset = %s AND m.axis = %d AND p.%s %s m.size - %d WHERE %s",
			s.spec.Name, ds, a, s.spec.DimNames[a], g.pick(sqlOps), 1+g.n(3), g.optCond(s, "p."))
	default:
		return g.aggQuery(s)
	}
	q.tet, q.native = render(sql, "f.", ""), render(sql, "main.native_", "")
	q.tol = s.tol
	return q
}

// where returns " WHERE cond", or nothing one time in four.
func (g *qgen) where(s *fuzzSet) string {
	if g.n(4) == 1 {
		return ""
	}
	return " WHERE " + g.cond(s, "", nil, 0)
}

// optCond is a condition on one side of a join, or 1.
func (g *qgen) optCond(s *fuzzSet, alias string) string {
	if g.n(3) == 1 {
		return "1"
	}
	return g.cond(s, alias, nil, 1)
}

// render replaces @{name} with prefix+name (and name+suffix).
func render(sql, prefix, suffix string) string {
	var b strings.Builder
	for {
		i := strings.Index(sql, "@{")
		if i < 0 {
			return b.String() + sql
		}
		j := strings.IndexByte(sql[i:], '}') + i
		b.WriteString(sql[:i] + prefix + sql[i+2:j] + suffix)
		sql = sql[j+1:]
	}
}

// aggQuery compares <dataset>_agg with GROUP BY over the native table.
// Only WHERE clauses whose meaning is the same before and after reducing
// are generated (docs/SQL.md "Aggregate tables"): anything on grouped
// dims and their labels (OR and NOT included), and on ungrouped ones
// only top-level terms the table consumes (=, <, <=, >, >=, BETWEEN, and
// IN when the binding reads IN lists whole).
func (g *qgen) aggQuery(s *fuzzSet) fquery {
	sp := s.spec
	grouped := make([]bool, len(sp.Shape))
	var by, sel []string
	for a, d := range sp.DimNames {
		if g.n(2) == 0 {
			grouped[a] = true
			by = append(by, d)
			sel = append(sel, d)
			if s.labeled(a) && g.n(2) == 0 {
				sel = append(sel, d+"_label")
			}
		}
	}
	var where []string
	for k := g.n(4); k > 0; k-- {
		if len(by) > 0 && g.n(2) == 0 {
			isGrouped := func(c fcol) bool { return (c.kind == 'd' || c.kind == 'l') && grouped[c.axis] }
			where = append(where, "("+g.cond(s, "", isGrouped, 1)+")")
			continue
		}
		a := g.n(len(sp.Shape))
		c := fcol{sp.DimNames[a], 'd', a}
		if s.labeled(a) && g.n(2) == 0 {
			c = fcol{c.name + "_label", 'l', a}
		}
		lit := func() string {
			if g.n(4) == 0 {
				return g.lit(s, c)
			}
			return g.natural(s, c)
		}
		switch op := g.n(8); {
		case op == 5:
			where = append(where, c.name+" BETWEEN "+lit()+" AND "+lit())
		case op == 6:
			where = append(where, c.name+" IN ("+lit()+", "+lit()+")")
		default:
			where = append(where, c.name+" "+g.pick(sqlOps)+" "+lit())
		}
	}
	w := ""
	if len(where) > 0 {
		w = " WHERE " + strings.Join(where, " AND ")
	}
	sum := "sum(value)"
	if s.bigint {
		sum = "CASE WHEN count(value) THEN total(value) END"
	}
	cols := strings.Join(append(sel, ""), ", ")
	tbl := "f." + sp.Name + "_agg"
	if len(by) > 0 {
		names := strings.Join(by, ",")
		if g.n(4) == 0 { // by names dims case-insensitively
			names = strings.ToUpper(names)
		}
		tbl += "('" + names + "')"
	}
	q := fquery{agg: true, approx: true, tol: s.tol, ungrouped: len(by) == 0}
	q.tet = "SELECT " + cols + "count, sum, min, max, mean FROM " + tbl + w
	q.native = "SELECT " + cols + "count(value), " + sum + ", min(value), max(value), avg(value) FROM main.native_" + sp.Name + w
	if len(by) > 0 {
		q.native += " GROUP BY " + strings.Join(by, ", ")
	}
	return q
}
