package vtab

import "github.com/tetsql/tetsql/internal/sqlitevt"

// textMatch: placeholder until the exact evaluator lands (always "maybe").
func textMatch(v *string, op sqlitevt.ConstraintOp, arg sqlitevt.Value) (match, exact bool) {
	if s, ok := arg.(string); ok && v != nil && op == sqlitevt.OpEQ {
		return *v == s, true
	}
	return true, false
}

func matchAny(v *string, op sqlitevt.ConstraintOp, list sqlitevt.InList) (match, exact bool) {
	exact = true
	for _, a := range list {
		m, e := textMatch(v, op, a)
		if m && e {
			return true, true
		}
		match, exact = match || m, exact && e
	}
	return match, exact
}
