package route

import "strings"

// Expressions of the result columns, HAVING, ORDER BY and LIMIT: each
// aggregate of value becomes the companion's result for the group's row.

// item rewrites one result column. An aggregate column without an alias
// is given its text as written as alias, the name SQLite would have
// given it.
func (p *parser) item(it []token) (string, bool) {
	body, alias := it, ""
	n := len(it)
	switch {
	case n >= 3 && it[n-2].is("AS") && it[n-1].kind == tIdent:
		body, alias = it[:n-2], it[n-1].text
	case n >= 2 && it[n-1].kind == tIdent && (it[n-1].quoted || !keywords[it[n-1].name]) && endsExpr(it[n-2]):
		body, alias = it[:n-1], it[n-1].text
	}
	if len(body) == 0 || body[0].punct("*") {
		return "", false
	}
	before := p.replaced
	s, ok := p.expr(body, false)
	if !ok {
		return "", false
	}
	if alias != "" {
		if p.shadowed(it[n-1].rawName()) {
			return "", false
		}
		p.alias = append(p.alias, strings.ToLower(it[n-1].rawName()))
		return s + " AS " + alias, true
	}
	if p.replaced != before {
		s += " AS " + quote(p.span(body, 0, len(body)))
	}
	return s, true
}

// endsExpr reports whether t can end an expression, so that an
// identifier after it is an alias.
func endsExpr(t token) bool {
	switch t.kind {
	case tNumber, tString, tParam:
		return true
	case tIdent:
		return t.quoted || !keywords[t.name]
	}
	return t.punct(")")
}

// expr rewrites an expression (or, for the tail, HAVING … ORDER BY …
// LIMIT …): aggregates of value are replaced, grouped dims and their
// labels kept, and anything else that could see the ungrouped rows (the
// value column outside an aggregate, an ungrouped dim, a subquery, an
// unknown function) makes it fail.
func (p *parser) expr(toks []token, tail bool) (string, bool) {
	var out []string
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.kind {
		case tString, tNumber, tParam:
			out = append(out, t.text)
			continue
		case tPunct:
			if t.punct(";") || t.punct(".") {
				return "", false
			}
			out = append(out, t.text)
			continue
		case tOther:
			return "", false
		}
		if i+1 < len(toks) && toks[i+1].punct("(") {
			if t.quoted {
				return "", false
			}
			if s, n, ok := p.aggregate(toks[i:]); ok {
				out = append(out, s)
				p.replaced++
				i += n - 1
				continue
			}
			if !scalars[t.name] {
				return "", false
			}
			out = append(out, t.text)
			continue
		}
		k, a, n := p.column(toks, i)
		switch {
		case (k == colDim || k == colLabel) && p.grouped(a):
			out = append(out, p.span(toks, i, i+n))
			i += n - 1
		case k != colNone || n != 1:
			return "", false
		case !t.quoted && keywords[t.name] || tail && !t.quoted && tailKeywords[t.name]:
			out = append(out, t.text)
		case tail && p.isAlias(t.rawName()):
			out = append(out, t.text)
		default:
			return "", false
		}
	}
	return strings.Join(out, " "), true
}

// aggregate reads an aggregate call at toks[0] ("name" "(" …); ok is
// false when it is not count(*), or count, sum, avg, min or max of the
// value column alone.
func (p *parser) aggregate(toks []token) (s string, n int, ok bool) {
	var col string
	switch toks[0].name {
	case "COUNT":
		col = `ifnull(max(%s."count"), 0)`
		if len(toks) >= 4 && toks[2].punct("*") && toks[3].punct(")") {
			return strings.ReplaceAll(`ifnull(max(%s."count" + %s."null_count"), 0)`, "%s", quote(p.qual)), 4, true
		}
	case "SUM":
		if !p.tab.Sum {
			return "", 0, false
		}
		col = `max(%s."sum")`
	case "AVG":
		col = `max(%s."mean")`
	case "MIN":
		col = `max(%s."min")`
	case "MAX":
		col = `max(%s."max")`
	default:
		return "", 0, false
	}
	if len(toks) < 4 {
		return "", 0, false
	}
	k, _, m := p.column(toks, 2)
	if k != colValue || len(toks) < 3+m || !toks[2+m].punct(")") {
		return "", 0, false
	}
	return strings.ReplaceAll(col, "%s", quote(p.qual)), 3 + m, true
}

func (p *parser) grouped(axis int) bool {
	for _, g := range p.group {
		if g == axis {
			return true
		}
	}
	return false
}

// shadowed reports whether an alias is the name of a companion column
// the cells table does not have (count, mean, q, …): the rewritten
// statement would read that column where the original read the alias.
func (p *parser) shadowed(alias string) bool {
	if k, _, _ := p.column([]token{{kind: tIdent, name: alias, quoted: true}}, 0); k == colDim || k == colLabel {
		return false // the cells table has it too, and means the same by it
	}
	for _, c := range p.tab.AggColumns {
		if strings.EqualFold(c, alias) {
			return true
		}
	}
	return false
}

func (p *parser) isAlias(name string) bool {
	for _, a := range p.alias {
		if a == strings.ToLower(name) {
			return true
		}
	}
	return false
}

// keywords may appear in an expression as they are.
var keywords = set("AND", "OR", "NOT", "NULL", "IS", "IN", "BETWEEN", "CASE", "WHEN", "THEN", "ELSE", "END",
	"CAST", "AS", "LIKE", "GLOB", "ESCAPE", "COLLATE", "NOCASE", "BINARY", "RTRIM", "TRUE", "FALSE",
	"REAL", "INTEGER", "TEXT", "NUMERIC")

// tailKeywords may appear after GROUP BY.
var tailKeywords = set("HAVING", "ORDER", "BY", "ASC", "DESC", "NULLS", "FIRST", "LAST", "LIMIT", "OFFSET")

// scalars are the functions an expression may call: deterministic
// scalar functions of SQLite's core (never an aggregate or window
// function, whose meaning over one row per group would differ).
var scalars = set("ROUND", "ABS", "COALESCE", "IFNULL", "NULLIF", "IIF", "SQRT", "EXP", "LN", "LOG", "LOG10",
	"LOG2", "POWER", "POW", "FLOOR", "CEIL", "CEILING", "TRUNC", "SIGN", "MOD", "PRINTF", "FORMAT", "SUBSTR",
	"SUBSTRING", "LENGTH", "UPPER", "LOWER", "TRIM", "LTRIM", "RTRIM", "REPLACE", "INSTR", "TYPEOF",
	"DATE", "TIME", "DATETIME", "JULIANDAY", "STRFTIME", "UNIXEPOCH", "CAST", "PI", "DEGREES", "RADIANS",
	"SIN", "COS", "TAN", "ASIN", "ACOS", "ATAN", "ATAN2")

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
