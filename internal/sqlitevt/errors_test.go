package sqlitevt_test

import (
	"context"
	"database/sql/driver"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tetsql/tetsql/internal/sqlitevt"
)

// queries exercising each callback.
var callbackQueries = []struct{ where, q string }{
	{"xBestIndex", "SELECT value FROM t WHERE value = 2"},
	{"xOpen", "SELECT value FROM t"},
	{"xFilter", "SELECT value FROM t"},
	{"xNext", "SELECT count(*) FROM t"}, // no column read: the message comes through zErrMsg
	{"xColumn", "SELECT value FROM t"},
	{"xRowid", "SELECT rowid FROM t"},
	{"xUpdate", "DELETE FROM t"},
	{"xCreate", "CREATE VIRTUAL TABLE u USING series(1, 2)"},
}

func TestErrors_fromEveryCallback(t *testing.T) {
	k := &knobs{}
	db := open(t, k, false, 1, 5)
	for _, tc := range callbackQueries {
		k.failAt = tc.where
		_, err := query(db, tc.q)
		k.failAt = ""
		want := "series: " + tc.where + " failed"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", tc.where, err, want)
		}
		if got := rows(t, db, "SELECT sum(value) FROM t"); got[0] != "15" {
			t.Fatalf("after %s: %v", tc.where, got)
		}
	}
}

func TestErrors_changesRefused(t *testing.T) {
	db := open(t, &knobs{}, false, 1, 5)
	for q, want := range map[string]string{
		"INSERT INTO t(value) VALUES (7)":        "series: INSERT refused",
		"UPDATE t SET value = 1":                 "series: UPDATE refused",
		"DELETE FROM t WHERE value = 2":          "series: DELETE refused",
		"CREATE VIRTUAL TABLE u USING series(1)": `series: want (lo, hi), got ["1"]`,
	} {
		if _, err := db.Exec(q); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", q, err, want)
		}
	}
	// A table without Refuser: SQLite's read-only error.
	plain := open(t, &knobs{}, true, 1, 5)
	if _, err := plain.Exec("DELETE FROM t"); err == nil || !strings.Contains(err.Error(), "readonly") {
		t.Errorf("plain table: %v, want a read-only error", err)
	}
}

// TestPanics_becomeErrors: a panic in any callback fails the statement
// with the PanicHandler's error (or a *PanicError), and the connection
// answers the next query.
func TestPanics_becomeErrors(t *testing.T) {
	for _, plain := range []bool{false, true} {
		k := &knobs{}
		db := open(t, k, plain, 1, 5)
		for _, tc := range append(callbackQueries, struct{ where, q string }{"xEof", "SELECT value FROM t"}) {
			if plain && tc.where == "xUpdate" {
				continue // no Refuser: nothing of the table runs
			}
			k.panicAt = tc.where
			_, err := query(db, tc.q)
			k.panicAt = ""
			want := "series: recovered in " + tc.where + ": boom in " + tc.where
			switch {
			case tc.where == "xCreate":
				want = "series module: recovered in xCreate: boom in xCreate"
			case plain:
				want = "sqlitevt: panic in " + tc.where + ": boom in " + tc.where
			}
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("plain=%v: panic in %s: %v, want %q", plain, tc.where, err, want)
			}
			if got := rows(t, db, "SELECT sum(value) FROM t"); got[0] != "15" {
				t.Fatalf("after a panic in %s: %v", tc.where, got)
			}
		}
		// Panics in Close and Disconnect are dropped: SQLite ignores
		// their result, and the objects are freed anyway.
		// In this order: the DROP removes the table the SELECT reads.
		for _, tc := range []struct{ where, q string }{{"xClose", "SELECT value FROM t"}, {"xDisconnect", "DROP TABLE t"}} {
			where, q := tc.where, tc.q
			k.panicAt = where
			_, err := query(db, q)
			k.panicAt = ""
			if err != nil {
				t.Errorf("panic in %s: %v", where, err)
			}
		}
	}
}

func TestPanicError(t *testing.T) {
	var err error = &sqlitevt.PanicError{Where: "xNext", Value: errors.New("x")}
	if err.Error() != "sqlitevt: panic in xNext: x" {
		t.Fatal(err)
	}
}

func TestHandle(t *testing.T) {
	if _, err := sqlitevt.HandleOf(fakeConn{}); err == nil || !strings.Contains(err.Error(), "cannot find the sqlite3 handle") {
		t.Errorf("HandleOf(fake): %v", err)
	}
	if !(sqlitevt.Handle{}).IsZero() {
		t.Error("zero Handle is not zero")
	}
	conn, err := modernc.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	h, err := sqlitevt.HandleOf(conn)
	if err != nil || h.IsZero() {
		t.Fatal(h, err)
	}
	old := h.SetLimit(sqlitevt.LimitSQLLength, 100)
	if got := h.SetLimit(sqlitevt.LimitSQLLength, -1); got != 100 || old <= 100 {
		t.Errorf("SetLimit: old %d, now %d", old, got)
	}
	exec := func(q string) error {
		st, err := conn.Prepare(q)
		if err != nil {
			return err
		}
		defer st.Close()
		_, err = st.(driver.StmtExecContext).ExecContext(context.Background(), nil)
		return err
	}
	if err := exec("SELECT '" + strings.Repeat("x", 200) + "'"); err == nil {
		t.Error("a statement above the SQL length limit ran")
	}
	before := h.State()
	if err := exec("PRAGMA foreign_keys = ON"); err != nil {
		t.Fatal(err)
	}
	if after := h.State(); after == before || after.Flags == before.Flags {
		t.Errorf("PRAGMA foreign_keys left the state unchanged: %+v", after)
	}
}

func TestHandle_interrupt(t *testing.T) {
	conn, err := modernc.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	h, _ := sqlitevt.HandleOf(conn)
	st, err := conn.Prepare("WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM s) SELECT count(*) FROM s")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
				h.Interrupt()
			}
		}
	}()
	defer close(stop)
	_, err = st.(driver.StmtQueryContext).QueryContext(context.Background(), nil)
	if err == nil || !strings.Contains(err.Error(), "interrupt") {
		t.Fatalf("endless query: %v, want interrupted", err)
	}
}

func TestFloatText(t *testing.T) {
	db := open(t, &knobs{}, false, 1, 1)
	for _, f := range []float64{1.0 / 3, 0.1, 1e300, -2.5, 100} {
		want := rows(t, db, "SELECT printf('%!.17g', ?)", f)[0]
		if got := sqlitevt.FloatText(f); got != want {
			t.Errorf("FloatText(%v) = %q, SQLite says %q", f, got, want)
		}
	}
}

// fakeConn is a driver.Conn that is not modernc's.
type fakeConn struct{ driver.Conn }
