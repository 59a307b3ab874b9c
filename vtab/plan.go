package vtab

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tetsql/tetsql/internal/sqlitevt"
	"github.com/tetsql/tetsql/planner"
)

// The plan encoding that BestIndex and Filter of cells and aggregate
// tables share, and the decoding of Filter's arguments into planner
// constraints.

// idxNum is a bit set:
//
//	bit  value  meaning
//	0    1      idxStr lists the constraints passed in argv
//	1    2      a LIMIT value is passed (last-but-one or last argv entry)
//	2    4      an OFFSET value is passed (last argv entry)
//	3    8      a top-k: ORDER BY value consumed (idxTopK, cells_topk.go)
//	4    16     the top-k is descending (idxDesc)
//	5    32     SQLite re-checks label terms and applies OFFSET (idxRecheck)
//	6    64     the top-k leaves NULL values out (idxNotNull, "N" in idxStr)
//
// idxStr names argv entries in order, comma-separated: "d<axis><op>" for a
// dim column, "l<axis><op>" for a TEXT label column, "n<axis><op>" for a
// numeric (INTEGER or REAL) label column, "r<op>" for rowid,
// "v<op>" for the value column (evaluated by the scan, which also skips
// chunks by their statistics), "L" for LIMIT and "O" for OFFSET, with <op> one of
// = < <= > >=.
const (
	idxConstraints = 1 << iota
	idxLimit
	idxOffset
)

// opNames spells the comparison of an idxStr entry.
var opNames = map[planner.Op]string{planner.OpEQ: "=", planner.OpLT: "<", planner.OpLE: "<=", planner.OpGT: ">", planner.OpGE: ">="}

// mapOp maps SQLite's comparison to the planner's; ok is false for the
// ones the planner does not take (LIKE, !=, IS, …).
func mapOp(op sqlitevt.ConstraintOp) (planner.Op, bool) {
	switch op {
	case sqlitevt.OpEQ:
		return planner.OpEQ, true
	case sqlitevt.OpLT:
		return planner.OpLT, true
	case sqlitevt.OpLE:
		return planner.OpLE, true
	case sqlitevt.OpGT:
		return planner.OpGT, true
	case sqlitevt.OpGE:
		return planner.OpGE, true
	}
	return 0, false
}

// encodeTarget names a dim, label or rowid target in idxStr.
func encodeTarget(tg planner.Target) string {
	switch tg.Kind {
	case planner.KindDim:
		return fmt.Sprintf("d%d", tg.Axis)
	case planner.KindLabel:
		return fmt.Sprintf("l%d", tg.Axis)
	}
	return "r"
}

// argSpec is one parsed idxStr entry.
type argSpec struct {
	target planner.Target
	op     planner.Op
	kind   byte // 'c' constraint, 'v' value term, 'L' limit, 'O' offset
	// numeric: the target compares numerically (a numeric label column;
	// dims and rowid always do)
	numeric bool
}

// parseIdxStr parses a cells idxStr into its argument entries.
func parseIdxStr(s string) ([]argSpec, error) {
	if s == "" {
		return nil, nil
	}
	var out []argSpec
	for _, p := range strings.Split(s, ",") {
		switch {
		case p == "L" || p == "O" || p == "N":
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
			sp.numeric = true
		case 'd', 'l', 'n':
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
			if p[0] != 'd' {
				sp.target = planner.Label(axis)
			}
			sp.numeric = p[0] != 'l'
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

// constraint turns the argument v of a dim, label or rowid entry into a
// planner constraint, converting TEXT compared with a numeric column (a
// dim, rowid or numeric label) as SQLite's numeric affinity does; ok is
// false when the entry selects every row (dim < 'text': every number
// sorts before TEXT) and adds no constraint.
func (sp argSpec) constraint(v any) (c planner.Constraint, ok bool) {
	if sp.numeric {
		var all bool
		if v, all = numericAffinity(v, sp.op); all {
			return c, false
		}
	}
	return planner.Constraint{Target: sp.target, Op: sp.op, Value: v}, true
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

// parseAggSpecs parses an aggregate idxStr: cells entries plus "b".
func parseAggSpecs(s string) ([]argSpec, error) {
	var out []argSpec
	for _, p := range strings.Split(s, ",") {
		if p == "b" || p == "q" {
			out = append(out, argSpec{kind: p[0]})
			continue
		}
		if p == "" {
			continue
		}
		specs, err := parseIdxStr(p)
		if err != nil {
			return nil, err
		}
		out = append(out, specs...)
	}
	return out, nil
}
