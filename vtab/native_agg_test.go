package vtab_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// TestNativeDifferential_agg compares grouped _agg rows under WHERE trees
// (OR, IN, BETWEEN, labels) on the grouped axes with GROUP BY over the
// native table, and with the +col form (which filters the output rows).
func TestNativeDifferential_agg(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 13))
	for round := 0; round < 2; round++ {
		path, sets := makeDiffFile(t, rng)
		db, _ := openDB(t, map[string]string{"f": path})
		for _, s := range sets {
			copyNative(t, db, s)
		}
		for q := 0; q < 100; q++ {
			s := sets[rng.IntN(len(sets))]
			sp := s.spec
			if sp.DType == tetcore.U64 {
				continue // min/max above 2^63 are REAL in one and mixed in the other
			}
			axes := []int{rng.IntN(len(sp.Shape))}
			if len(sp.Shape) > 1 && rng.IntN(2) == 0 {
				axes = append(axes, (axes[0]+1)%len(sp.Shape))
			}
			var by []string
			for _, a := range axes {
				by = append(by, sp.DimNames[a])
			}
			g := &whereGen{rng: rng, sp: sp, axes: axes, agg: true}
			w := g.tree(2, plainCol)
			wHidden := hide(w, sp)
			if u := ungroupedTerm(rng, sp, axes); u != "" {
				// A term on an ungrouped dim selects elements: it must
				// reach every scan, also beside an OR (and is not hidden).
				w, wHidden = "("+w+") AND "+u, "("+wHidden+") AND "+u
			}
			keys := strings.Join(by, ", ")
			tail := " ORDER BY " + keys
			if rng.IntN(2) == 0 {
				tail = fmt.Sprintf(" ORDER BY count DESC, %s LIMIT %d", keys, 1+rng.IntN(5))
			}
			native := fmt.Sprintf("SELECT %s, count(value) AS count, min(value) AS min, max(value) AS max FROM main.n_%s WHERE %s GROUP BY %s%s",
				keys, sp.Name, w, keys, tail)
			agg := fmt.Sprintf("SELECT %s, count, min, max FROM f.%s_agg('%s') WHERE %%s%s", keys, sp.Name, strings.Join(by, ","), tail)
			want := rowsOf(t, db, native)
			got := rowsOf(t, db, fmt.Sprintf(agg, w))
			gotHidden := rowsOf(t, db, fmt.Sprintf(agg, wHidden))
			if !slices.Equal(got, want) || !slices.Equal(gotHidden, want) {
				t.Fatalf("%s %v chunks %v:\n%s\n_agg:   %v\n+col:   %v\nnative: %v", sp.DType, sp.Shape, sp.ChunkShape,
					fmt.Sprintf(agg, w), got, gotHidden, want)
			}
		}
	}
}

// TestAggOr_issue22 is the query of issue 22: the multi-index OR plan
// must not drop the groups of the second term.
func TestAggOr_issue22(t *testing.T) {
	db, _ := openDB(t, map[string]string{"demo": "../testdata/demo.tet"})
	q := "SELECT time, count FROM demo.temperature_agg('time') WHERE %s ORDER BY time"
	got := rowsOf(t, db, fmt.Sprintf(q, "time > 360 OR time IN (3, 7)"))
	want := rowsOf(t, db, fmt.Sprintf(q, "+time > 360 OR +time IN (3, 7)"))
	cells := rowsOf(t, db, "SELECT time, count(value) FROM demo.temperature WHERE time > 360 OR time IN (3, 7) GROUP BY time ORDER BY time")
	if len(want) != 7 || !slices.Equal(got, want) || !slices.Equal(got, cells) {
		t.Fatalf("got %v\n+col %v\ncells %v", got, want, cells)
	}
	// An OR ANDed with a term on an ungrouped dim: the station term must
	// select elements (SQLite's OR plan would offer each scan only its OR
	// term, and the station term would then filter rows whose station is
	// NULL, leaving none).
	for _, and := range []string{"station > 40", "station IN (1, 2)", "station_label = 'Oslo'", "station BETWEEN 3 AND 9"} {
		w := "(time < 2 OR time > 363) AND " + and
		got := rowsOf(t, db, fmt.Sprintf(q, w))
		cells := rowsOf(t, db, "SELECT time, count(value) FROM demo.temperature WHERE "+w+" GROUP BY time ORDER BY time")
		if len(cells) != 4 || !slices.Equal(got, cells) {
			t.Fatalf("%s: got %v, cells %v", w, got, cells)
		}
	}
	// An OR is never consumed: on an ungrouped dim it filters the output
	// row, whose time is NULL, so nothing comes back, whichever plan.
	for _, w := range []string{"time < 5 OR time > 363", "(time < 5 OR time > 363) AND station > 40"} {
		if got := rowsOf(t, db, "SELECT count FROM demo.temperature_agg WHERE "+w); len(got) != 0 {
			t.Fatalf("ungrouped %s: got %v, want no row", w, got)
		}
	}
}

// ungroupedTerm returns, half of the time, a term on a dim not in axes that
// _agg consumes exactly (a comparison, BETWEEN or IN on the index), or "".
func ungroupedTerm(rng *rand.Rand, sp tetcore.DatasetSpec, axes []int) string {
	var free []int
	for a := range sp.Shape {
		if !slices.Contains(axes, a) {
			free = append(free, a)
		}
	}
	if len(free) == 0 || rng.IntN(2) == 0 {
		return ""
	}
	a := free[rng.IntN(len(free))]
	n, d := sp.Shape[a], sp.DimNames[a]
	v := func() int64 { return rng.Int64N(n+2) - 1 }
	switch rng.IntN(4) {
	case 0:
		return fmt.Sprintf("%s %s %d", d, []string{"=", "<", "<=", ">", ">="}[rng.IntN(5)], v())
	case 1:
		lo := v()
		return fmt.Sprintf("%s BETWEEN %d AND %d", d, lo, lo+rng.Int64N(n+1))
	case 2:
		return fmt.Sprintf("%s IN (%d, %d)", d, v(), v())
	}
	return fmt.Sprintf("%s >= %d AND %s < %d", d, v(), d, v())
}
