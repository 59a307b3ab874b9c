package vtab_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
	"github.com/tetsql/tetsql/vtab"
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
			// The fallback binding cannot see collations and takes _agg
			// label terms as BINARY (docs/SQL.md).
			g := &whereGen{rng: rng, sp: sp, axes: axes, agg: true, binary: vtab.ActiveBinding() == vtab.BindingModernc}
			w := g.tree(2, plainCol)
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
			gotHidden := rowsOf(t, db, fmt.Sprintf(agg, hide(w, sp)))
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
	// Terms selecting different elements of an ungrouped axis give one row
	// per distinct selection, each with its own rowid.
	got = rowsOf(t, db, "SELECT count FROM demo.temperature_agg WHERE time < 5 OR time > 363 ORDER BY count")
	if !slices.Equal(got, []string{"100", "250"}) {
		t.Fatalf("ungrouped OR: got %v, want one row per term", got)
	}
}
