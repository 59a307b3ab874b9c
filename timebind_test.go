package tetsql_test

import (
	"context"
	"database/sql"
	"fmt"
	"reflect"
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

// TestTimeLabels_scanIntoTime: with time_labels, date label columns scan
// into time.Time (cells and aggregate tables), the time binds back to the
// same label, other columns are unchanged, and without the option such a
// Scan fails as before.
func TestTimeLabels_scanIntoTime(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	plain, err := sql.Open("tetsql", "testdata/demo.tet")
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	db, err := sql.Open("tetsql", "testdata/demo.tet?time_labels=true")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const q = "SELECT time_label, station_label, value FROM temperature WHERE time = 74 AND station = 3"
	var label, station, station2 string
	var v, v2 float64
	if err := plain.QueryRowContext(ctx, q).Scan(&label, &station, &v); err != nil {
		t.Fatal(err)
	}
	want, err := time.Parse(time.DateOnly, label)
	if err != nil {
		t.Fatalf("label %q is not a date: %v", label, err)
	}
	var got time.Time
	if err := db.QueryRowContext(ctx, q).Scan(&got, &station2, &v2); err != nil || !got.Equal(want) || got.Location() != time.UTC || station2 != station || v2 != v {
		t.Fatalf("time_labels: %v %q %v (%v), want %v %q %v", got, station2, v2, err, want, station, v)
	}
	if err := plain.QueryRowContext(ctx, q).Scan(&got, &station2, &v2); err == nil {
		t.Errorf("without time_labels a label scanned into time.Time")
	}
	// The scanned time binds back as the label.
	var back string
	if err := plain.QueryRowContext(ctx, "SELECT min(time_label) FROM temperature WHERE time_label = ?", got).Scan(&back); err != nil || back != label {
		t.Errorf("bound back: %q %v, want %q", back, err, label)
	}
	// Column types.
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	cts, _ := rows.ColumnTypes()
	rows.Close()
	if cts[0].DatabaseTypeName() != "DATE" || cts[0].ScanType() != reflect.TypeFor[time.Time]() || cts[1].DatabaseTypeName() != "TEXT" {
		t.Errorf("column types %s %v, %s", cts[0].DatabaseTypeName(), cts[0].ScanType(), cts[1].DatabaseTypeName())
	}
	// Aggregate tables: grouped rows carry times, ungrouped labels NULL.
	var day time.Time
	var none sql.NullTime
	var mean float64
	if err := db.QueryRowContext(ctx, "SELECT time_label, mean FROM temperature_agg WHERE by = 'time' AND time = 74").Scan(&day, &mean); err != nil || !day.Equal(want) {
		t.Errorf("agg grouped: %v %v, want %v", day, err, want)
	}
	if err := db.QueryRowContext(ctx, "SELECT time_label, mean FROM temperature_agg WHERE time BETWEEN 1 AND 3").Scan(&none, &mean); err != nil || none.Valid {
		t.Errorf("agg ungrouped: %v %v, want NULL", none, err)
	}
}

// TestTimeLabels_comparisonsUnchanged: the declared type of time label
// columns keeps TEXT affinity, so every comparison (with numbers too)
// gives what it gives on a native TEXT column of the same labels.
func TestTimeLabels_comparisonsUnchanged(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := sql.Open("tetsql", "testdata/demo.tet?time_labels=true")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// Declared TEXT explicitly: CREATE TABLE AS would copy the affinity.
	for _, q := range []string{"CREATE TEMP TABLE native(l TEXT)", "INSERT INTO native SELECT time_label FROM temperature"} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	var decl string
	if err := conn.QueryRowContext(ctx, "SELECT type FROM pragma_table_info('temperature') WHERE name = 'time_label'").Scan(&decl); err != nil || decl != "DATE_TEXT" {
		t.Fatalf("declared type %q %v, want DATE_TEXT (else this test proves nothing)", decl, err)
	}
	for _, cond := range []string{
		"%s > 3000", "%s < 3000", "%s > 2024", "%s >= '2024-03-15'", "%s = '2024-03-15'", "%s = 20240315",
		"%s BETWEEN '2024-02-28' AND '2024-03-01'", "%s < 2024.5", "%s IN ('2024-01-01', 2024)", "%s LIKE '2024-03%%'",
	} {
		var n, want int
		if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM temperature WHERE "+fmt.Sprintf(cond, "time_label")).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM native WHERE "+fmt.Sprintf(cond, "l")).Scan(&want); err != nil {
			t.Fatal(err)
		}
		if n != want {
			t.Errorf("%s: %d rows, native TEXT column %d", fmt.Sprintf(cond, "time_label"), n, want)
		}
	}
}
