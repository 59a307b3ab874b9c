package route

import "strings"

// The clauses of a statement Rewrite takes: WHERE terms the companion
// consumes exactly, GROUP BY dims, and expressions over grouped dims and
// aggregates of value.

type colKind int

const (
	colNone colKind = iota
	colDim
	colLabel
	colValue
	colRowid
)

// column reads a column reference "[qual.]name" at toks[i]; n is the
// number of tokens it spans (0: not a name). A qualifier other than the
// table's gives colNone with n = 3.
func (p *parser) column(toks []token, i int) (k colKind, axis, n int) {
	if toks[i].kind != tIdent {
		return colNone, 0, 0
	}
	name, n := toks[i].rawName(), 1
	if i+2 < len(toks) && toks[i+1].punct(".") && toks[i+2].kind == tIdent {
		if !strings.EqualFold(name, p.qual) {
			return colNone, 0, 3
		}
		name, n = toks[i+2].rawName(), 3
	}
	for a, d := range p.tab.Dims {
		if strings.EqualFold(name, d) {
			return colDim, a, n
		}
	}
	for a, l := range p.tab.Labels {
		if l != "" && strings.EqualFold(name, l) {
			return colLabel, a, n
		}
	}
	switch strings.ToLower(name) {
	case "value":
		return colValue, 0, n
	case "rowid", "oid", "_rowid_":
		return colRowid, 0, n
	}
	return colNone, 0, n
}

// span is the statement's text from toks[i] through toks[j-1].
func (p *parser) span(toks []token, i, j int) string {
	last := toks[j-1]
	return p.q[toks[i].pos : last.pos+len(last.text)]
}

func (p *parser) at(kw string) bool { return p.pos < len(p.toks) && p.toks[p.pos].is(kw) }

// where reads "WHERE term AND term …" and returns its text. A term is
// "col op operand", "col BETWEEN operand AND operand" or "col IN
// (operand, …)" on a dim, a label or (when the companion takes it) the
// value, with operands that are literals or parameters: the terms the
// companion consumes exactly before reducing.
func (p *parser) where() (string, bool) {
	if !p.at("WHERE") {
		return "", true
	}
	p.pos++
	start := p.pos
	for {
		if !p.term() {
			return "", false
		}
		if !p.at("AND") {
			break
		}
		p.pos++
	}
	if p.pos == start || !(p.pos == len(p.toks) || p.at("GROUP")) {
		return "", false
	}
	return p.span(p.toks, start, p.pos), true
}

func (p *parser) term() bool {
	if p.pos >= len(p.toks) {
		return false
	}
	k, a, n := p.column(p.toks, p.pos)
	if n == 0 || !(k == colDim || k == colLabel || k == colValue && p.tab.AggValue) {
		return false
	}
	p.pos += n
	p.label = k == colLabel
	p.textLabel = p.label && a < len(p.tab.TextLabels) && p.tab.TextLabels[a]
	if p.pos >= len(p.toks) {
		return false
	}
	t := p.toks[p.pos]
	switch {
	case t.kind == tPunct && (t.text == "=" || t.text == "==" || t.text == "<" || t.text == "<=" || t.text == ">" || t.text == ">="):
		p.pos++
		return p.operand()
	case t.is("BETWEEN"):
		p.pos++
		if !p.operand() || !p.at("AND") {
			return false
		}
		p.pos++
		return p.operand()
	case t.is("IN") && k != colValue: // the companion refuses value IN (…): one row per listed value would be wrong
		p.pos++
		if p.pos >= len(p.toks) || !p.toks[p.pos].punct("(") {
			return false
		}
		p.pos++
		for {
			if !p.operand() || p.pos >= len(p.toks) {
				return false
			}
			if p.toks[p.pos].punct(")") {
				p.pos++
				return true
			}
			if !p.toks[p.pos].punct(",") {
				return false
			}
			p.pos++
		}
	}
	return false
}

// operand reads a literal number (optionally signed), string or
// parameter: for a label term only a literal, and for a TEXT label only
// a string.
func (p *parser) operand() bool {
	if p.label {
		if p.pos >= len(p.toks) {
			return false
		}
		switch k := p.toks[p.pos].kind; {
		case k == tParam, p.textLabel && k != tString:
			return false
		}
	}
	if p.pos < len(p.toks) && (p.toks[p.pos].punct("-") || p.toks[p.pos].punct("+")) {
		p.pos++
		if p.pos >= len(p.toks) || p.toks[p.pos].kind != tNumber {
			return false
		}
	}
	if p.pos >= len(p.toks) {
		return false
	}
	switch p.toks[p.pos].kind {
	case tNumber, tString, tParam:
		p.pos++
		return true
	}
	return false
}

// groupBy reads "GROUP BY dim, …" (distinct dims) and returns its text.
func (p *parser) groupBy() (string, bool) {
	if !p.at("GROUP") {
		return "", true
	}
	p.pos++
	if !p.at("BY") {
		return "", false
	}
	p.pos++
	start := p.pos
	for {
		if p.pos >= len(p.toks) {
			return "", false
		}
		k, a, n := p.column(p.toks, p.pos)
		if k != colDim {
			return "", false
		}
		for _, g := range p.group {
			if g == a {
				return "", false
			}
		}
		d := p.tab.Dims[a]
		if d == "" || strings.ContainsAny(d, ",/' \t\n") {
			return "", false // not a name the companion's by argument can carry
		}
		p.group = append(p.group, a)
		p.pos += n
		if p.pos == len(p.toks) || !p.toks[p.pos].punct(",") {
			break
		}
		p.pos++
	}
	return p.span(p.toks, start, p.pos), true
}
