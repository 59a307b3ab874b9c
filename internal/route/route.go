// Package route answers aggregate queries over a cells table from the
// table's _agg companion, which reduces whole chunks in Go instead of
// passing every element through SQLite as a row:
//
//	SELECT time, avg(value) FROM t2m WHERE lat > 0 GROUP BY time
//
// becomes
//
//	SELECT time, max("mean") AS "avg(value)" FROM s.t2m_agg('time') AS "t2m" WHERE lat > 0 GROUP BY time
//
// Each group of the original query is one row of the companion, so every
// aggregate of value becomes the companion's result for that row (max of
// one row is the row), and the rest of the statement (HAVING, ORDER BY,
// LIMIT, expressions around the aggregates, result column names) keeps
// its meaning. Rewrite takes only statements whose every part it
// understands: one cells table, a WHERE that is a conjunction of terms
// the companion consumes exactly, GROUP BY on dim columns, and
// count/sum/avg/min/max of value. Anything else is left alone and runs as
// written, so a statement it does not rewrite gives the same answer,
// only slower.
package route

import (
	"strings"
)

// Table describes the cells table a FROM names, as the catalog found it.
type Table struct {
	Schema string   // the schema that holds it (resolved as SQLite resolves the name)
	Agg    string   // its _agg companion; "" = none
	Dims   []string // the dim columns, by axis
	Labels []string // the label column of each axis ("" = none)
	// TextLabels marks the axes whose label column is TEXT: the
	// companion refuses to compare those with a number (the answer would
	// depend on an affinity it cannot see), so a term on one is taken
	// only with a string literal.
	TextLabels []bool
	// UniqueLabels marks the TEXT label axes whose labels are all
	// distinct: GROUP BY such a label groups exactly as GROUP BY its dim.
	UniqueLabels []bool
	Sizes        []int64 // the axis sizes
	AggValue     bool    // the companion takes value terms (its HIDDEN value column)
	// AggColumns are the companion's columns, hidden ones included: an
	// alias named like one that the cells table lacks would, in HAVING
	// and inside ORDER BY expressions, name that column after the
	// rewrite (SQLite resolves table columns before aliases there).
	AggColumns []string
	Sum        bool // the companion's sum has SQLite's sum(value) type and range
}

// MaxGroups is the most groups a rewritten query may have: the
// companion holds every group's running result in memory at once (about
// 100 bytes each), where SQLite's GROUP BY over the rows would sort them
// on disk if it had to.
const MaxGroups = 1 << 18

// Catalog resolves a table name (schema "" = unqualified) to a cells
// table; ok is false for anything else.
type Catalog func(schema, name string) (t Table, ok bool)

// Rewrite returns the statement to run instead of q, and whether there
// is one.
func Rewrite(q string, cat Catalog) (string, bool) {
	toks, ok := lex(q)
	if !ok || len(toks) < 4 || !toks[0].is("SELECT") {
		return "", false
	}
	if n := len(toks); toks[n-1].punct(";") {
		toks = toks[:n-1]
	}
	p := &parser{q: q, toks: toks, pos: 1}
	return p.rewrite(cat)
}

type parser struct {
	q     string
	toks  []token
	pos   int
	tab   Table
	qual  string   // the name columns may be qualified with (alias or table name)
	group []int    // grouped axes
	alias []string // item aliases, lower case
	// replaced counts the aggregates replaced so far.
	replaced int
	// label and textLabel describe the column of the WHERE term being read.
	label, textLabel bool
}

func (p *parser) rewrite(cat Catalog) (string, bool) {
	items, ok := p.items()
	if !ok {
		return "", false
	}
	schema, name, qual, ok := p.from()
	if !ok {
		return "", false
	}
	if p.tab, ok = cat(schema, name); !ok || p.tab.Agg == "" {
		return "", false
	}
	p.qual = qual
	where, ok := p.where()
	if !ok {
		return "", false
	}
	groupText, ok := p.groupBy()
	if !ok {
		return "", false
	}
	var sel []string
	for _, it := range items {
		s, ok := p.item(it)
		if !ok {
			return "", false
		}
		sel = append(sel, s)
	}
	if p.pos < len(p.toks) && (len(p.group) == 0 || !(p.at("HAVING") || p.at("ORDER") || p.at("LIMIT"))) {
		return "", false // a HAVING, ORDER BY or LIMIT of an ungrouped aggregate, or what no rule reads
	}
	tail, ok := p.expr(p.toks[p.pos:], true)
	if !ok || p.replaced == 0 && len(p.group) == 0 {
		return "", false
	}
	groups := int64(1)
	for _, a := range p.group {
		if groups = groups * p.tab.Sizes[a]; groups > MaxGroups {
			return "", false // more groups than the companion should hold in memory at once
		}
	}
	var by []string
	for _, a := range p.group {
		by = append(by, p.tab.Dims[a])
	}
	var b strings.Builder
	b.WriteString("SELECT " + strings.Join(sel, ", ") + " FROM ")
	b.WriteString(quote(p.tab.Schema) + "." + quote(p.tab.Agg) + "('" + strings.Join(by, ",") + "') AS " + quote(qual))
	if where != "" {
		b.WriteString(" WHERE " + where)
	}
	if groupText != "" {
		b.WriteString(" GROUP BY " + groupText)
	}
	if tail != "" {
		b.WriteString(" " + tail)
	}
	return b.String(), true
}

// items splits the result columns, up to FROM.
func (p *parser) items() ([][]token, bool) {
	var items [][]token
	start, depth := p.pos, 0
	for ; p.pos < len(p.toks); p.pos++ {
		t := p.toks[p.pos]
		switch {
		case t.punct("("):
			depth++
		case t.punct(")"):
			depth--
		case depth == 0 && (t.punct(",") || t.is("FROM")):
			if p.pos == start {
				return nil, false
			}
			items = append(items, p.toks[start:p.pos])
			start = p.pos + 1
			if t.is("FROM") {
				p.pos++
				return items, true
			}
		}
	}
	return nil, false
}

// from reads "[schema.]table [[AS] alias]".
func (p *parser) from() (schema, name, qual string, ok bool) {
	id := func() (string, bool) {
		if p.pos < len(p.toks) && p.toks[p.pos].kind == tIdent && (p.toks[p.pos].quoted || !reserved[p.toks[p.pos].name]) {
			p.pos++
			return p.toks[p.pos-1].rawName(), true
		}
		return "", false
	}
	if name, ok = id(); !ok {
		return
	}
	if p.pos < len(p.toks) && p.toks[p.pos].punct(".") {
		p.pos++
		schema = name
		if name, ok = id(); !ok {
			return
		}
	}
	qual = name
	if p.pos < len(p.toks) && p.toks[p.pos].is("AS") {
		p.pos++
		if qual, ok = id(); !ok {
			return
		}
	} else if a, isAlias := id(); isAlias {
		qual = a
	}
	return schema, name, qual, true
}

// rawName is an identifier's name as written (keywords keep their case).
func (t token) rawName() string {
	if t.quoted {
		return t.name
	}
	return t.text
}

// reserved are the keywords that end a FROM clause or may not be a name.
var reserved = map[string]bool{"WHERE": true, "GROUP": true, "ORDER": true, "LIMIT": true, "HAVING": true,
	"JOIN": true, "NATURAL": true, "LEFT": true, "RIGHT": true, "FULL": true, "INNER": true, "CROSS": true,
	"OUTER": true, "ON": true, "USING": true, "UNION": true, "EXCEPT": true, "INTERSECT": true, "WINDOW": true,
	"INDEXED": true, "NOT": true, "AS": true, "SELECT": true, "FROM": true, "VALUES": true}

// quote writes an identifier as a quoted SQL name.
func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
