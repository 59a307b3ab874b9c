package tetsql_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	tetsql "github.com/tetsql/tetsql"
)

func TestFormatTime(t *testing.T) {
	t.Parallel()
	cet := time.FixedZone("CET", 3600)
	for _, tc := range []struct {
		in   time.Time
		want string
	}{
		{time.Date(2024, 3, 15, 0, 0, 0, 0, time.UTC), "2024-03-15"},
		{time.Date(2024, 3, 15, 0, 0, 0, 0, cet), "2024-03-15"},
		{time.Date(2024, 3, 15, 6, 30, 0, 0, time.UTC), "2024-03-15T06:30:00"},
		{time.Date(2024, 3, 15, 6, 30, 0, 250e6, time.UTC), "2024-03-15T06:30:00.25"},
		{time.Date(2024, 3, 15, 0, 0, 0, 1, time.UTC), "2024-03-15T00:00:00.000000001"},
		{time.Date(2024, 3, 15, 6, 30, 0, 0, cet), "2024-03-15T06:30:00+01:00"},
	} {
		if got := tetsql.FormatTime(tc.in); got != tc.want {
			t.Errorf("FormatTime(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestTimeArgument_matchesDateLabels: a time.Time argument compares with
// the date labels of demo.tet as the same date given as text does.
func TestTimeArgument_matchesDateLabels(t *testing.T) {
	t.Parallel()
	db, err := sql.Open("tetsql", "testdata/demo.tet")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	day := time.Date(2024, 3, 15, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name, q  string
		args     []any
		textArgs []any
	}{
		{"equal", "SELECT count(*), sum(value) FROM temperature WHERE time_label = ?",
			[]any{day}, []any{"2024-03-15"}},
		{"equal local midnight", "SELECT count(*), sum(value) FROM temperature WHERE time_label = ?",
			[]any{time.Date(2024, 3, 15, 0, 0, 0, 0, time.FixedZone("X", -5*3600))}, []any{"2024-03-15"}},
		{"between", "SELECT count(*), sum(value) FROM temperature WHERE time_label BETWEEN ? AND ?",
			[]any{day, day.AddDate(0, 0, 3)}, []any{"2024-03-15", "2024-03-18"}},
		{"sql.NullTime", "SELECT count(*), sum(value) FROM temperature WHERE time_label = ?",
			[]any{sql.NullTime{Time: day, Valid: true}}, []any{"2024-03-15"}},
		{"prepared", "SELECT count(*), sum(value) FROM pressure WHERE time_label >= ? AND lat_label = '0'",
			[]any{day}, []any{"2024-03-15"}},
	} {
		var n, nText int
		var sum, sumText float64
		if err := db.QueryRowContext(ctx, tc.q, tc.textArgs...).Scan(&nText, &sumText); err != nil {
			t.Fatalf("%s (text): %v", tc.name, err)
		}
		if nText == 0 {
			t.Fatalf("%s: the text query matches nothing; the test proves nothing", tc.name)
		}
		stmt, err := db.PrepareContext(ctx, tc.q)
		if err != nil {
			t.Fatal(err)
		}
		err = stmt.QueryRowContext(ctx, tc.args...).Scan(&n, &sum)
		stmt.Close()
		if err != nil || n != nText || sum != sumText {
			t.Errorf("%s: time.Time args give count %d sum %v (%v); text args give %d %v", tc.name, n, sum, err, nText, sumText)
		}
	}
	// A native table stores the same text.
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "CREATE TEMP TABLE tt(d TEXT)"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "INSERT INTO tt VALUES (?)", day); err != nil {
		t.Fatal(err)
	}
	var s string
	if err := conn.QueryRowContext(ctx, "SELECT d FROM tt").Scan(&s); err != nil || s != "2024-03-15" {
		t.Errorf("stored %q %v", s, err)
	}
}
