package vtab_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/tetsql/tetsql/vtab"
)

// TestIsolation_plainModerncConnectionHasNoModule: a program's own
// modernc.org/sqlite connections, opened before, after and while tetsql
// connections are opened, have neither the tet module nor tet_last_scan().
func TestIsolation_plainModerncConnectionHasNoModule(t *testing.T) {
	sample, _ := filepath.Abs(ref("sample.tet"))
	create := "CREATE VIRTUAL TABLE temp.x USING tet('" + sample + "', tet_file)"
	plain, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	plain.SetMaxIdleConns(0) // every use opens a new connection
	tet := sql.OpenDB(vtab.Connector{Name: ":memory:", Session: newSession()})
	defer tet.Close()
	tet.SetMaxIdleConns(0)
	check := func(db *sql.DB, want bool) error {
		ctx := context.Background()
		c, err := db.Conn(ctx)
		if err != nil {
			return err
		}
		defer c.Close()
		_, err1 := c.ExecContext(ctx, create)
		_, err2 := c.ExecContext(ctx, "SELECT tet_last_scan()")
		if want && (err1 != nil || err2 != nil) {
			return fmt.Errorf("tetsql connection: %v, %v", err1, err2)
		}
		if !want && (err1 == nil || !strings.Contains(err1.Error(), "no such module: tet") ||
			err2 == nil || !strings.Contains(err2.Error(), "no such function: tet_last_scan")) {
			return fmt.Errorf("plain connection: create %v, tet_last_scan %v; want no such module / function", err1, err2)
		}
		return nil
	}
	if err := check(plain, false); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := check([]*sql.DB{plain, tet}[i%2], i%2 == 1); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if err := check(plain, false); err != nil {
		t.Fatal(err)
	}
}

// TestIsolation_tableBelongsToItsConnectionsSession: a session=N argument
// naming another connection's session is refused, and a table created on
// connection B records its scans on B's session, never on A's.
func TestIsolation_tableBelongsToItsConnectionsSession(t *testing.T) {
	t.Parallel()
	sample, _ := filepath.Abs(ref("sample.tet"))
	_, sessA := openDB(t, map[string]string{"s": sample})
	dbB, sessB := openDB(t, nil)
	for _, arg := range []string{fmt.Sprintf("session=%d", sessA.ID), fmt.Sprintf(" SESSION = %d", sessA.ID)} {
		q := "CREATE VIRTUAL TABLE temp.stolen USING tet('" + sample + "', cells, 'temperature', " + arg + ")"
		if _, err := dbB.Exec(q); err == nil || !strings.Contains(err.Error(), "session argument is not accepted") {
			t.Fatalf("%s: %v, want refused", q, err)
		}
	}
	if _, err := dbB.Exec("CREATE VIRTUAL TABLE temp.own USING tet('" + sample + "', cells, 'temperature')"); err != nil {
		t.Fatal(err)
	}
	var sum float64
	if err := dbB.QueryRow("SELECT sum(value) FROM temp.own").Scan(&sum); err != nil || sum != 21 {
		t.Fatalf("sum %v %v, want 21", sum, err)
	}
	if got := sessA.TakeScans(); len(got) != 0 {
		t.Errorf("A's session got %d scans of B's table", len(got))
	}
	if got := sessB.TakeScans(); len(got) != 1 || got[0].Dataset != "temperature" {
		t.Errorf("B's session: %+v, want one scan of temperature", got)
	}
}
