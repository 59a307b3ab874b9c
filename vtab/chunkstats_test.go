package vtab_test

import "testing"

func TestValuePredicatesSkipChunksFoldedByAggregates(t *testing.T) {
	t.Parallel()
	db, sess := openDB(t, map[string]string{"st": writeStations(t)})
	q := "SELECT count(*), min(value) FROM st.temp WHERE value > 2500 AND value <> 2600"
	before := rowsOf(t, db, q)
	if s := sess.TakeScans(); s[0].ChunksDecoded != 15 || s[0].ChunksSkipped != 0 {
		t.Fatalf("before any aggregate: %+v", s[0])
	}
	rowsOf(t, db, "SELECT count FROM st.temp_agg('station')") // folds every chunk whole
	sess.TakeScans()
	after := rowsOf(t, db, q)
	s := sess.TakeScans()[0]
	if before[0] != "23|2501" || after[0] != before[0] {
		t.Fatalf("results %v then %v", before, after)
	}
	// Chunks cover 7 days: the 9 chunks of days 0..20 have max ≤ 2004.
	if s.ChunksDecoded != 6 || s.ChunksSkipped != 9 {
		t.Fatalf("after the aggregate: %+v", s)
	}
	for _, tc := range []struct {
		where   string
		skipped int64
	}{
		{"value < 100", 12}, {"value = 704", 12}, {"value >= 2904", 14}, {"value <= 99.5", 12},
		{"value > 'abc'", 0}, {"value IS NULL", 0}, {"value = NULL", 0},
	} {
		rowsOf(t, db, "SELECT count(*) FROM st.temp WHERE "+tc.where)
		if s := sess.TakeScans()[0]; s.ChunksSkipped != tc.skipped {
			t.Errorf("WHERE %s: skipped %d chunks, want %d", tc.where, s.ChunksSkipped, tc.skipped)
		}
	}
}
