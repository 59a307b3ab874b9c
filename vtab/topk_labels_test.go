package vtab_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTopK_numericLabels: top-k under numeric label terms (consumed
// exactly on ordered axes, re-checked by SQLite on unordered ones, where
// the top-k serves rows in pages for SQLite to filter) gives the rows of
// a native table with typed label columns, ordered by value then rowid.
func TestTopK_numericLabels(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 70))
	path, sets := writeNumLabelled(t, rng)
	db, _ := openDB(t, map[string]string{"x": path})
	types := []string{"REAL", "INTEGER", "INTEGER", "REAL"}
	for _, s := range sets {
		copyNumNative(t, db, s, types)
	}
	topks := 0
	for q := 0; q < 300; q++ {
		s := sets[rng.IntN(len(sets))]
		w := numWhere(rng)
		dir := []string{"", " DESC"}[rng.IntN(2)]
		lim := fmt.Sprintf(" LIMIT %d", []int{1, 3, 10, 500}[rng.IntN(4)])
		if rng.IntN(3) == 0 {
			lim += fmt.Sprintf(" OFFSET %d", rng.IntN(20))
		}
		q := "SELECT rowid, lat_label, lev_label, value FROM %s WHERE " + w + " ORDER BY value" + dir + "%s" + lim
		cells := fmt.Sprintf(q, "x."+s.spec.Name, "")
		tie := ""
		if isTopK(t, db, cells) {
			topks++
		} else {
			tie = ", rowid" // SQLite's sort breaks ties as it likes
		}
		got := rowsOf(t, db, fmt.Sprintf(q, "x."+s.spec.Name, tie))
		want := rowsOf(t, db, fmt.Sprintf(q, "main.n_"+s.spec.Name, ", rowid"))
		if !slices.Equal(noNegZero(got), noNegZero(want)) {
			t.Fatalf("%s:\ncells:  %v\nnative: %v", cells, got, want)
		}
	}
	if topks < 100 {
		t.Errorf("only %d of 300 queries planned as a top-k", topks)
	}
}
