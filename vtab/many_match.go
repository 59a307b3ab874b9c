package vtab

import (
	"math"
	"strconv"
	"strings"

	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/internal/sqlitevt"
)

// A many-file table's TEXT columns (the file path, the hive values) are
// known for every file before it is opened, so a WHERE constraint on them
// can skip a file whose value cannot satisfy it. textMatch decides that
// the way SQLite itself decides "col OP ?" for a column declared TEXT:
// a wrong "no" would drop rows, so every answer not proven equal to
// SQLite's (against SQLite itself, by many_match_test.go) is a "maybe".

// likePatternLimit is SQLite's default SQLITE_LIMIT_LIKE_PATTERN_LENGTH:
// a longer LIKE or GLOB pattern makes the query fail instead of match.
const likePatternLimit = 50000

// exactRealLimit bounds the REALs whose text textMatch renders: below
// 2^53 a whole number has at most 16 digits, all exact, and SQLite
// renders it as "<integer>.0". Other REALs go through SQLite's own digit
// generation ("%!.17g", shortened by a round-trip heuristic: neither the
// shortest text nor %.15g, e.g. 0.1 is "0.1" but 9.94e21 is
// "9.939999999999999e+21"), which is not reproduced here; they answer
// "maybe".
const exactRealLimit = 1 << 53

// operandKind is what the right-hand side of a comparison is once TEXT
// affinity has been applied to it.
type operandKind uint8

const (
	operandNull operandKind = iota
	operandText
	operandBlob
)

// textMatch reports whether "v OP arg" holds in SQLite for a column of
// TEXT affinity holding v (nil: NULL) under the BINARY collation, with
// arg the right-hand value as xFilter receives it (nil, int64, float64,
// string or []byte; never an InList). exact is false when the answer is
// only "maybe" (match is then true): callers keep the file and let
// SQLite decide.
//
// The rules, each checked against SQLite by the tests:
//   - a comparison (=, <>, <, <=, >, >=, IS, IS NOT) applies TEXT
//     affinity to its right operand, bound parameters included: an
//     INTEGER becomes its decimal text, a REAL its rendering (3.0 is
//     '3.0', not '3'), a BLOB stays a BLOB and sorts after every TEXT;
//     NULL (and a NaN, which SQLite binds as NULL) matches nothing
//     except under IS / IS NOT;
//   - but when the right-hand side has NUMERIC affinity (a joined
//     table's INTEGER column, a CAST) SQLite applies NUMERIC affinity to
//     both sides instead ('02' = 2 holds), and xFilter's value cannot
//     say which case it is: a comparison is exact only where both
//     readings agree ('2020' = 2020 is exact, '02' = 2 is a maybe);
//   - BINARY compares bytes (memcmp, then length), as Go compares strings;
//   - LIKE and GLOB are SQLite's built-in like() and glob() (see
//     patternCompare); a BLOB pattern never matches (modernc.org/sqlite
//     is built with SQLITE_LIKE_DOESNT_MATCH_BLOBS), a number pattern is
//     its text.
//
// LIKE is answered for SQLite's default, ASCII case-insensitive LIKE.
// PRAGMA case_sensitive_like (or an application's own like() function)
// changes what LIKE means on the connection, and nothing here can see
// that: the case-insensitive answer is then a superset of the
// case-sensitive one (every case-sensitive match also matches without
// case), so it stays safe for skipping files, but a caller that must
// return exact rows under case_sensitive_like cannot rely on exact.
// Comparisons assume BINARY: a caller checks the constraint's collation
// (sqlitevt.Constraint.Collation) before using textMatch for one.
func textMatch(v *string, op sqlitevt.ConstraintOp, arg sqlitevt.Value) (match, exact bool) {
	switch op {
	case sqlitevt.OpISNULL:
		return v == nil, true
	case sqlitevt.OpISNOTNULL:
		return v != nil, true
	case sqlitevt.OpEQ, sqlitevt.OpNE, sqlitevt.OpLT, sqlitevt.OpLE, sqlitevt.OpGT, sqlitevt.OpGE,
		sqlitevt.OpIS, sqlitevt.OpISNOT, sqlitevt.OpLIKE, sqlitevt.OpGLOB:
	default:
		return true, false
	}
	if op == sqlitevt.OpLIKE || op == sqlitevt.OpGLOB {
		return patternMatch(v, op == sqlitevt.OpLIKE, arg)
	}
	rhs, kind, known := textOperand(arg)
	if v == nil || kind == operandNull {
		// Known even for a REAL whose text is not: it is not NULL.
		both := v == nil && kind == operandNull
		switch op {
		case sqlitevt.OpIS:
			return both, true
		case sqlitevt.OpISNOT:
			return !both, true
		}
		return false, true // NULL compared is NULL: no row
	}
	if !known {
		return true, false
	}
	c := -1 // any TEXT sorts before any BLOB
	if kind == operandText {
		c = strings.Compare(*v, rhs)
	}
	holds := compareHolds(op, c)
	// The right-hand side may instead have NUMERIC affinity (a numeric
	// column of a joined table, a CAST): SQLite then applies NUMERIC
	// affinity to v and compares numbers. xFilter's value does not say
	// which, so only an answer both ways agree on is exact.
	if cn, ok := numericAffinityCompare(*v, arg); ok && compareHolds(op, cn) != holds {
		return true, false
	}
	return holds, true
}

// compareHolds applies the comparison op to c, the sign of "v - arg".
func compareHolds(op sqlitevt.ConstraintOp, c int) bool {
	switch op {
	case sqlitevt.OpEQ, sqlitevt.OpIS:
		return c == 0
	case sqlitevt.OpNE, sqlitevt.OpISNOT:
		return c != 0
	case sqlitevt.OpLT:
		return c < 0
	case sqlitevt.OpLE:
		return c <= 0
	case sqlitevt.OpGT:
		return c > 0
	default: // OpGE
		return c >= 0
	}
}

// numericAffinityCompare is the sign of "v - arg" under NUMERIC
// affinity, which SQLite applies to both sides at the comparison: a TEXT
// that reads as a number becomes that number, and numbers sort before
// texts. arg is an INTEGER, REAL or TEXT (false for others: a NULL or a
// BLOB compares the same either way).
func numericAffinityCompare(v string, arg sqlitevt.Value) (int, bool) {
	x, xNum := numericValue(v)
	var y any
	yNum := true
	switch a := arg.(type) {
	case string:
		y, yNum = numericValue(a)
		if yNum {
			// A TEXT that reads as a number cannot come from a source
			// of NUMERIC affinity (a numeric column stores it as a
			// number): the comparison is TEXT's (the range terms SQLite
			// derives from year GLOB '20*' are '20' and '21').
			return 0, false
		}
		if !xNum {
			return strings.Compare(v, a), true
		}
	case int64, float64:
		y = a
	default:
		return 0, false
	}
	switch {
	case xNum && yNum:
		return compareNumbers(x, y), true
	case xNum:
		return -1, true
	default:
		return 1, true
	}
}

// numericValue is s under NUMERIC affinity: an int64 or float64, or
// false when s stays TEXT.
func numericValue(s string) (any, bool) {
	n, ok := parseNumeric(s)
	if _, real := n.(float64); real {
		n = sqliteReal(s) // SQLite's rounding, not strconv's
	}
	return n, ok
}

// compareNumbers compares two numbers, each an int64 or a float64 (not
// NaN), exactly, as SQLite compares an INTEGER with a REAL (scan.CmpNum).
func compareNumbers(x, y any) int {
	return scan.CmpNum(toNum(x), toNum(y))
}

// toNum is an int64 or float64 as a scan.Num.
func toNum(x any) scan.Num {
	if f, ok := x.(float64); ok {
		return scan.Num{F: f, Real: true}
	}
	i, _ := x.(int64)
	return scan.Num{I: i}
}

// patternMatch is "v LIKE arg" (like) or "v GLOB arg".
func patternMatch(v *string, like bool, arg sqlitevt.Value) (match, exact bool) {
	if _, ok := arg.([]byte); ok {
		return false, true // SQLITE_LIKE_DOESNT_MATCH_BLOBS: 0 even for a NULL v
	}
	if v == nil {
		return false, true
	}
	pat, kind, known := textOperand(arg)
	switch {
	case !known:
		return true, false
	case kind == operandNull:
		return false, true
	case len(pat) > likePatternLimit:
		return true, false // SQLite fails the statement ("pattern too complex")
	}
	return patternCompare(cString(pat), cString(*v), like) == patMatch, true
}

// cString is s as the C functions see it through sqlite3_value_text:
// up to its first NUL.
func cString(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return s[:i]
		}
	}
	return s
}

// textOperand is arg after TEXT affinity: its text (for operandText),
// its kind, and whether it is known (false: a REAL whose rendering is
// not reproduced).
func textOperand(arg sqlitevt.Value) (text string, kind operandKind, known bool) {
	switch a := arg.(type) {
	case nil:
		return "", operandNull, true
	case string:
		return a, operandText, true
	case []byte:
		return "", operandBlob, true
	case int64:
		return strconv.FormatInt(a, 10), operandText, true
	case float64:
		if math.IsNaN(a) {
			return "", operandNull, true // sqlite3_bind_double binds a NaN as NULL
		}
		s, ok := realText(a)
		return s, operandText, ok
	}
	return "", operandNull, false
}

// realText is SQLite's text for the REAL f (as CAST(f AS TEXT) gives
// it), for the REALs whose rendering is reproduced: the infinities and
// whole numbers below 2^53 in magnitude (-0.0 included, which SQLite
// renders as "0.0").
func realText(f float64) (string, bool) {
	switch {
	case math.IsInf(f, 1):
		return "Inf", true
	case math.IsInf(f, -1):
		return "-Inf", true
	case f == math.Trunc(f) && math.Abs(f) < exactRealLimit:
		return strconv.FormatInt(int64(f), 10) + ".0", true
	}
	return "", false
}

// matchAny is textMatch for "col IN (list)" (op is OpEQ): true if any
// element matches. The answer is exact when one element matches exactly
// (the IN holds whatever the others say) or when every element's answer
// is exact.
func matchAny(v *string, op sqlitevt.ConstraintOp, list sqlitevt.InList) (match, exact bool) {
	maybe := false
	for _, e := range list {
		m, ex := textMatch(v, op, e)
		if m && ex {
			return true, true
		}
		if !ex {
			maybe = true
		}
	}
	if maybe {
		return true, false
	}
	return false, true
}
