package vtab

import (
	"strconv"
	"strings"
	"sync"

	"modernc.org/libc"
	lib "modernc.org/sqlite/lib"

	"github.com/tetsql/tetsql/planner"
)

// span is a half-open run of selected global indices along one axis.
type span struct{ lo, hi int64 }

// axisSel is the exact selection along one axis of an aggregate: sorted,
// disjoint runs, with the position of each run's start in the compact
// numbering of the selected indices (used to number groups).
type axisSel struct {
	runs []span
	pos  []int64
	n    int64
}

func (s *axisSel) add(lo, hi int64) {
	if k := len(s.runs); k > 0 && s.runs[k-1].hi == lo {
		s.runs[k-1].hi = hi
		s.n += hi - lo
		return
	}
	s.runs = append(s.runs, span{lo, hi})
	s.pos = append(s.pos, s.n)
	s.n += hi - lo
}

// compact returns the compact position of global index g inside run i.
func (s *axisSel) compact(i int, g int64) int64 { return s.pos[i] + g - s.runs[i].lo }

// selectAxes turns a plan plus its constraints into exact per-axis
// selections. The planner's box is exact for dims; label terms the plan
// does not honour (ranges on unsorted labels, duplicated labels, numbers
// or blobs against labels) are evaluated on every label of the box.
func selectAxes(p *planner.Plan, cons []planner.Constraint, labels [][]string) []axisSel {
	sel := make([]axisSel, p.Rank())
	for d := range sel {
		lo, hi := p.Interval(d)
		exact := true
		for i, c := range cons {
			if c.Target.Kind == planner.KindLabel && c.Target.Axis == d && !p.Honoured(i) {
				exact = false
			}
		}
		if exact || p.Empty() {
			if lo < hi && !p.Empty() {
				sel[d].add(lo, hi)
			}
			continue
		}
		for g := lo; g < hi; g++ {
			ok := true
			for _, c := range cons {
				if c.Target.Kind == planner.KindLabel && c.Target.Axis == d {
					ok = ok && labelMatches(labels[d][g], c.Op, c.Value)
				}
			}
			if ok {
				sel[d].add(g, g+1)
			}
		}
	}
	return sel
}

// labelMatches compares a TEXT label with a value as SQLite does for a
// TEXT column: numbers get TEXT affinity (their SQL text form), NULL
// matches nothing, and a BLOB sorts after every TEXT value.
func labelMatches(label string, op planner.Op, v any) bool {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case int64:
		s = strconv.FormatInt(x, 10)
	case float64:
		s = sqlFloatText(x)
	case []byte:
		return op == planner.OpLT || op == planner.OpLE
	default:
		return false
	}
	c := strings.Compare(label, s)
	switch op {
	case planner.OpEQ:
		return c == 0
	case planner.OpLT:
		return c < 0
	case planner.OpLE:
		return c <= 0
	case planner.OpGT:
		return c > 0
	}
	return c >= 0
}

// sqlFloatText renders a REAL the way SQLite converts it to TEXT for a
// comparison with a TEXT column: its own printf with "%!.17g" (the
// default of SQLITE_DBCONFIG_FP_DIGITS), whose digits are SQLite's own and
// not always those of Go's formatting ("0.33333333333333332" for 1/3,
// "Inf" for +Inf). So it asks SQLite.
func sqlFloatText(f float64) string {
	fpFormatOnce.Do(func() { fpFormat, _ = libc.CString("%!.17g") })
	if fpFormat == 0 {
		return strconv.FormatFloat(f, 'g', 17, 64)
	}
	tls := libc.NewTLS()
	defer tls.Close()
	args := tls.Alloc(8)
	defer tls.Free(8)
	z := lib.Xsqlite3_mprintf(tls, fpFormat, libc.VaList(args, f))
	if z == 0 {
		return strconv.FormatFloat(f, 'g', 17, 64)
	}
	defer lib.Xsqlite3_free(tls, z)
	return libc.GoString(z)
}

var (
	fpFormatOnce sync.Once
	fpFormat     uintptr // C string, allocated once, never freed
)
