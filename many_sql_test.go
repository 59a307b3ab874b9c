package tetsql_test

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"

	"github.com/tetsql/tetsql"
)

// manyFiles are the files of testdata/many, in glob order.
var manyFiles = []string{
	"testdata/many/year=2024/month=01/era5.tet",
	"testdata/many/year=2024/month=02/era5.tet",
	"testdata/many/year=2024/month=03/era5.tet",
}

// scalar runs q on conn and returns its one value as text.
func scalar(t *testing.T, conn *sql.Conn, q string) string {
	t.Helper()
	var v sql.NullString
	if err := conn.QueryRowContext(context.Background(), q).Scan(&v); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return v.String
}

// TestGlobDSN_union: a glob DSN answers counts, sums, group-bys and the
// _agg companion as the files queried one by one and added up. Needs
// the tet_many module.
func TestGlobDSN_union(t *testing.T) {
	t.Parallel()
	_, conn := openConn(t, "testdata/many/**/*.tet")
	var count, sum float64
	var byStation = map[string]float64{}
	for _, f := range manyFiles {
		_, one := openConn(t, f)
		var n, s float64
		if err := one.QueryRowContext(context.Background(), "SELECT count(*), sum(value) FROM t2m").Scan(&n, &s); err != nil {
			t.Fatal(err)
		}
		count, sum = count+n, sum+s
		rows, err := one.QueryContext(context.Background(), "SELECT station_label, sum(value) FROM t2m GROUP BY 1")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var st string
			var v float64
			if err := rows.Scan(&st, &v); err != nil {
				t.Fatal(err)
			}
			byStation[st] += v
		}
		rows.Close()
	}
	if count != 18 {
		t.Fatalf("the single files hold %v values, want 18", count)
	}
	// wave values are multiples of 1/1024: sums are exact in any order.
	for _, tc := range []struct {
		q    string
		want float64
	}{
		{"SELECT count(*) FROM t2m", count},
		{"SELECT count(*) FROM many.t2m", count},
		{"SELECT sum(value) FROM t2m", sum},
		{"SELECT sum FROM t2m_agg", sum},
		{"SELECT count FROM t2m_agg", count},
		{"SELECT sum(value) FROM t2m WHERE station_label = 'Lima'", byStation["Lima"]},
		{"SELECT sum(value) FROM t2m WHERE station_label = 'Oslo'", byStation["Oslo"]},
	} {
		var got float64
		if err := conn.QueryRowContext(context.Background(), tc.q).Scan(&got); err != nil {
			t.Errorf("%s: %v", tc.q, err)
		} else if got != tc.want {
			t.Errorf("%s = %v, want %v", tc.q, got, tc.want)
		}
	}
	for _, tc := range []struct{ q, want string }{
		{"SELECT group_concat(DISTINCT year) FROM t2m", "2024"},
		{"SELECT count(DISTINCT file) FROM t2m", "3"},
		{"SELECT min(file) FROM t2m", manyFiles[0]},
		{"SELECT group_concat(month, ',') FROM (SELECT DISTINCT month FROM t2m ORDER BY month)", "01,02,03"},
	} {
		if got := scalar(t, conn, tc.q); got != tc.want {
			t.Errorf("%s = %s, want %s", tc.q, got, tc.want)
		}
	}
}

// TestGlobDSN_safe: a glob in a safe-mode DSN is set up (the driver's
// own statements are trusted) and read; the user's ATTACH is still
// refused. Needs the tet_many module.
func TestGlobDSN_safe(t *testing.T) {
	t.Parallel()
	_, conn := openConn(t, "demo=testdata/demo.tet;m=testdata/many/**/*.tet?safe=1")
	if got := scalar(t, conn, "SELECT count(*) FROM m.t2m"); got != "18" {
		t.Errorf("count over the glob in safe mode = %s, want 18", got)
	}
	if got := scalar(t, conn, "SELECT count(*) FROM demo.elevation"); got != "50" {
		t.Errorf("count over the file in safe mode = %s, want 50", got)
	}
	_, err := conn.ExecContext(context.Background(), "ATTACH ':memory:' AS x")
	if !errors.Is(err, tetsql.ErrNotAllowed) {
		t.Errorf("ATTACH in safe mode: %v, want ErrNotAllowed", err)
	}
}

// TestAttach_glob: Conn.Attach (the shell's .open) attaches a glob as
// one schema, named by GlobAlias or the alias given; a glob matching
// nothing is an error naming it and attaches nothing. Needs the
// tet_many module.
func TestAttach_glob(t *testing.T) {
	t.Parallel()
	_, conn := openConn(t, "testdata/demo.tet")
	attach := func(alias, pattern string) error {
		return conn.Raw(func(dc any) error {
			return dc.(*tetsql.Conn).Attach(context.Background(), alias, pattern)
		})
	}
	if err := attach("", "testdata/many/*/*/*.tet"); err != nil {
		t.Fatal(err)
	}
	if err := attach("q1", "testdata/many/year=2024/month=0[12]/*.tet"); err != nil {
		t.Fatal(err)
	}
	if got := scalar(t, conn, "SELECT count(*) FROM many.t2m"); got != "18" {
		t.Errorf("many.t2m: %s rows, want 18", got)
	}
	if got := scalar(t, conn, "SELECT count(*) FROM q1.t2m"); got != "12" {
		t.Errorf("q1.t2m: %s rows, want 12", got)
	}
	err := attach("none", "testdata/many/year=1999/*.tet")
	if err == nil || !strings.Contains(err.Error(), "testdata/many/year=1999/*.tet") {
		t.Errorf("attaching an empty glob: %v", err)
	}
	if got := scalar(t, conn, "SELECT count(*) FROM pragma_database_list WHERE name = 'none'"); got != "0" {
		t.Errorf("an empty glob left a schema")
	}
}

// TestGlobDSN_reused: a pooled connection with a glob's schema is reused
// after a query (its reset finds nothing changed), not replaced.
func TestGlobDSN_reused(t *testing.T) {
	t.Parallel()
	db, err := sql.Open("tetsql", "testdata/demo.tet;testdata/many/**/*.tet")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	var seen []*tetsql.Conn
	for range 3 {
		conn, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got := scalar(t, conn, "SELECT count(*) FROM many.t2m"); got != "18" {
			t.Errorf("many.t2m: %s rows, want 18", got)
		}
		conn.Raw(func(dc any) error { seen = append(seen, dc.(*tetsql.Conn)); return nil })
		conn.Close()
	}
	if seen[0] != seen[1] || seen[1] != seen[2] {
		t.Errorf("the connection was replaced between uses: %p %p %p", seen[0], seen[1], seen[2])
	}
}
