package vtab

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/internal/sqlitevt"
	"github.com/tetsql/tetsql/planner"
)

// cellsCursor translates one cells scan between SQLite and the engine:
// Filter turns argument values into a plan, scan.CellScan walks it, and
// Column turns positions and elements into SQL values.
type cellsCursor struct {
	t      *cellsTable
	s      scan.CellScan
	plan   planner.Plan
	cons   []planner.Constraint
	specs  []argSpec
	spec   string           // idxStr that specs were parsed from
	vterms []scan.ValueTerm // value terms, to skip chunks by cached statistics
}

// argSpec is one parsed idxStr entry.
type argSpec struct {
	target planner.Target
	op     planner.Op
	kind   byte // 'c' constraint, 'v' value term, 'L' limit, 'O' offset
}

func parseIdxStr(s string) ([]argSpec, error) {
	if s == "" {
		return nil, nil
	}
	var out []argSpec
	for _, p := range strings.Split(s, ",") {
		switch {
		case p == "L" || p == "O":
			out = append(out, argSpec{kind: p[0]})
			continue
		case len(p) < 2:
			return nil, fmt.Errorf("tet: bad plan %q", s)
		}
		var sp argSpec
		sp.kind = 'c'
		rest := p[1:]
		switch p[0] {
		case 'v':
			sp.kind = 'v'
		case 'r':
			sp.target = planner.RowID()
		case 'd', 'l':
			i := 0
			for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
				i++
			}
			axis, err := strconv.Atoi(rest[:i])
			if err != nil {
				return nil, fmt.Errorf("tet: bad plan %q", s)
			}
			rest = rest[i:]
			sp.target = planner.Dim(axis)
			if p[0] == 'l' {
				sp.target = planner.Label(axis)
			}
		default:
			return nil, fmt.Errorf("tet: bad plan %q", s)
		}
		found := false
		for op, name := range opNames {
			if name == rest {
				sp.op, found = op, true
			}
		}
		if !found {
			return nil, fmt.Errorf("tet: bad plan %q", s)
		}
		out = append(out, sp)
	}
	return out, nil
}

// Filter plans the chunks for one set of argument values. SQLite calls it
// once per value of an IN list; statistics add up over the calls.
func (c *cellsCursor) Filter(idxNum int, idxStr string, vals []sqlitevt.Value) error {
	panicPoint("xFilter")
	c.s.Begin()
	if idxStr != c.spec || c.specs == nil {
		specs, err := parseIdxStr(idxStr)
		if err != nil {
			return err
		}
		c.specs, c.spec = specs, idxStr
	}
	if len(vals) != len(c.specs) {
		return fmt.Errorf("tet: %s: plan expects %d arguments, got %d", c.t.qualified, len(c.specs), len(vals))
	}
	c.cons, c.vterms = c.cons[:0], c.vterms[:0]
	var offset int64
	remaining := int64(-1)
	for i, sp := range c.specs {
		v := vals[i]
		switch sp.kind {
		case 'L':
			n, ok := v.(int64)
			if !ok {
				return nil // non-integer LIMIT: SQLite errors out itself
			}
			remaining = max(n, 0)
			if n < 0 {
				remaining = -1 // LIMIT -1 means no limit
			}
			continue
		case 'O':
			if n, ok := v.(int64); ok && n > 0 {
				offset = n
			}
			continue
		case 'v':
			if vt, ok := newValueTerm(sp.op, v); ok {
				c.vterms = append(c.vterms, vt)
			}
			continue
		}
		if sp.target.Kind != planner.KindLabel {
			var all bool
			v, all = numericAffinity(v, sp.op)
			if all {
				continue // e.g. dim < 'text': every integer sorts before TEXT
			}
		}
		c.cons = append(c.cons, planner.Constraint{Target: sp.target, Op: sp.op, Value: v})
	}
	if err := c.plan.Reset(c.t.geom, c.cons); err != nil {
		return fmt.Errorf("tet: %s: %w", c.t.qualified, err)
	}
	return c.s.Start(&c.plan, offset, remaining, c.vterms)
}

// numericAffinity converts a TEXT value compared with an INTEGER column
// the way SQLite's numeric affinity does. A value that stays TEXT or BLOB
// sorts after every integer: "col op v" then selects nothing (nil) or,
// for < and <=, everything (all = true).
func numericAffinity(v any, op planner.Op) (out any, all bool) {
	var isText bool
	switch x := v.(type) {
	case string:
		if n, ok := parseNumeric(x); ok {
			return n, false
		}
		isText = true
	case []byte:
		isText = true
	}
	if !isText {
		return v, false
	}
	if op == planner.OpLT || op == planner.OpLE {
		return nil, true
	}
	return nil, false
}

// parseNumeric accepts what SQLite's numeric affinity converts (its
// sqlite3AtoF): the text up to the first NUL, less ASCII white space
// (" \t\n\v\f\r", not other Unicode spaces) on both ends, must be a
// decimal integer or real literal, optionally signed. An integer that
// fits int64 stays an integer; anything else becomes a REAL, out-of-range
// exponents included ("1e400" is +Inf, "1e-400" is 0). Hex, "inf", "nan"
// and digit separators stay TEXT.
func parseNumeric(s string) (any, bool) {
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	s = strings.Trim(s, " \t\n\v\f\r")
	if s == "" {
		return nil, false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r == '.' || r == 'e' || r == 'E' || r == '+' || r == '-') {
			return nil, false
		}
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err == nil || errors.Is(err, strconv.ErrRange) {
		return f, true
	}
	return nil, false
}

// Next moves to the next row. A read error is kept and reported through
// Column (which carries a message to SQLite) and the following Next.
func (c *cellsCursor) Next() error { return c.s.Next() }

// Eof reports the end of rows; after a read error it stays false so that
// SQLite asks for a column and receives the error message.
func (c *cellsCursor) Eof() bool { return c.s.Eof() }

// Rowid is the element's global row-major index.
func (c *cellsCursor) Rowid() (int64, error) {
	panicPoint("xRowid")
	return c.s.Rowid(), c.s.Err()
}

// Close records the scan's statistics and unpins the source.
func (c *cellsCursor) Close() error {
	panicPoint("xClose")
	c.s.Close() // records the statistics on the session
	if c.s.Started() {
		c.t.conn.record(c.s.Stats)
	}
	return nil
}
