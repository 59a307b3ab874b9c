package vtab_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// TestAggValue_matchSQLite compares _agg with value terms (the HIDDEN
// value column) with plain aggregates over the native table's rows that
// pass the same WHERE, grouped and not, with dim terms beside them.
func TestAggValue_matchSQLite(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 3))
	rounds, queries := 3, 200
	if testing.Short() {
		rounds, queries = 1, 120
	}
	ran := 0
	for round := 0; round < rounds; round++ {
		path, sets := makeValueFile(t, rng)
		db, sess := openDB(t, map[string]string{"f": path})
		for _, s := range sets {
			copyNative(t, db, s)
		}
		for q := 0; q < queries; q++ {
			s := sets[rng.IntN(len(sets))]
			sp := s.spec
			w := valueWhere(rng, sp)
			w = strings.ReplaceAll(w, "rowid", sp.DimNames[0]) // _agg has no rowid
			if strings.Contains(w, "value IN") {
				continue // refused by _agg (TestAggValue_refusesIn)
			}
			if strings.Contains(w, "value = ") && strings.Count(w, "value") > 1 {
				// SQLite propagates the constant of "value = x" into the
				// other value terms and, when they fail, runs no scan at
				// all: _agg then has no row (docs/SQL.md).
				continue
			}
			res := "count, min, max"
			nres := "count(value), min(value), max(value)"
			if sp.DType == tetcore.U64 {
				res, nres = "count", "count(value)" // min/max above 2^63: REAL in one, mixed in the other
			}
			var agg, native string
			if rng.IntN(2) == 0 {
				agg = fmt.Sprintf("SELECT %s FROM f.%s_agg WHERE %s", res, sp.Name, w)
				native = fmt.Sprintf("SELECT %s FROM main.n_%s WHERE %s", nres, sp.Name, w)
			} else {
				d := sp.DimNames[rng.IntN(len(sp.DimNames))]
				agg = fmt.Sprintf("SELECT %s, %s FROM f.%s_agg('%s') WHERE %s ORDER BY %s", d, res, sp.Name, d, w, d)
				native = fmt.Sprintf("SELECT %s, %s FROM main.n_%s WHERE %s GROUP BY %s ORDER BY %s", d, nres, sp.Name, w, d, d)
			}
			ran++
			got, want := negZero(rowsOf(t, db, agg)), negZero(rowsOf(t, db, native))
			if !slices.Equal(got, want) {
				t.Fatalf("%s %v chunks %v:\n%s\n_agg:   %v\nnative: %v", sp.DType, sp.Shape, sp.ChunkShape, agg, got, want)
			}
			sess.TakeScans()
		}
	}
	if ran < rounds*queries/2 {
		t.Fatalf("only %d of %d queries compared", ran, rounds*queries)
	}
}

// TestAggValue_skipsAndFilters: on a ramp (chunk k holds k·100 …), _agg
// with value terms reduces only the passing elements, skips the chunks
// their statistics exclude once they are known, and reports value NULL.
func TestAggValue_skipsAndFilters(t *testing.T) {
	db, sess := openDB(t, map[string]string{"f": writeRamp(t, 10000, 100)})
	for i, tc := range []struct {
		q, want          string
		decoded, skipped int64
	}{
		{"SELECT count, min, max, value FROM f.r_agg WHERE value > 9349.5", "650|9350|9999|<nil>", 100, 0},
		{"SELECT count, min, max FROM f.r_agg WHERE value > 9349.5", "650|9350|9999", 7, 93},
		{"SELECT count, sum FROM f.r_agg WHERE value BETWEEN 250 AND 449 AND d0 < 300", "50|13725", 1, 2},
		{"SELECT count, null_count FROM f.r_agg WHERE value >= 0", "9990|0", 100, 0},
		{"SELECT count FROM f.r_agg WHERE value > 'abc'", "0", 0, 100},
		{"SELECT count FROM f.r_agg WHERE value < 'abc' AND value >= 9990", "10", 1, 99},
		{"SELECT count FROM f.r_agg WHERE value = 5000.5", "0", 0, 100},
	} {
		got := rowsOf(t, db, tc.q)
		if len(got) != 1 || got[0] != tc.want {
			t.Fatalf("%d: %s: %v, want %s", i, tc.q, got, tc.want)
		}
		s := sess.TakeScans()[0]
		if s.ChunksDecoded != tc.decoded || s.ChunksSkipped != tc.skipped {
			t.Errorf("%d: %s: decoded=%d skipped=%d, want %d %d", i, tc.q, s.ChunksDecoded, s.ChunksSkipped, tc.decoded, tc.skipped)
		}
	}
	// Grouped: chunks 0 and 1 pass whole or in part; groups with no
	// passing element are left out, as GROUP BY leaves them out.
	got := rowsOf(t, db, "SELECT d0, count FROM f.r_agg('d0') WHERE value BETWEEN 98 AND 101.5 ORDER BY d0")
	if strings.Join(got, ",") != "98|1,99|1,100|1,101|1" {
		t.Fatalf("grouped: %v", got)
	}
}

func TestAggValue_refusesIn(t *testing.T) {
	db, _ := openDB(t, map[string]string{"f": writeRamp(t, 1000, 100)})
	if _, err := db.Query("SELECT count FROM f.r_agg WHERE value IN (1, 2)"); err == nil || !strings.Contains(err.Error(), "IN") {
		t.Fatalf("value IN on _agg: %v", err)
	}
}
