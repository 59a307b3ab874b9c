package vtab_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/tetsql/tetsql/vtab"
)

// TestRev_connectionsShareASession: connections of one session query
// their own many-file tables at the same time, with a damaged file
// skipped and another failing (run with -race): each gets its own
// answers and errors.
func TestRev_connectionsShareASession(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(4, 4))
	var paths []string
	for m := range 8 {
		paths = append(paths, manyMonth(t, dir, 2020, m+1, 28, rng))
	}
	b, _ := os.ReadFile(paths[3])
	os.WriteFile(paths[3], b[:len(b)/3], 0o644)
	sess := newSession()
	var mu sync.Mutex
	warned := 0
	sess.Warn = func(string) { mu.Lock(); warned++; mu.Unlock() }
	db := sql.OpenDB(vtab.Connector{Name: ":memory:", Session: sess})
	t.Cleanup(func() { db.Close() })
	glob := filepath.Join(dir, "**", "*.tet")
	ctx := context.Background()
	const n = 4
	conns := make([]*sql.Conn, n)
	for i := range conns {
		c, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns[i] = c
		for _, s := range []string{
			fmt.Sprintf(`CREATE VIRTUAL TABLE s USING tet_many('%s', 't2m', 'on_error=skip')`, glob),
			fmt.Sprintf(`CREATE VIRTUAL TABLE s_agg USING tet_many('%s', 't2m', 'on_error=skip', 'kind=agg')`, glob),
			fmt.Sprintf(`CREATE VIRTUAL TABLE m_agg USING tet_many('%s', 't2m', 'kind=agg')`, glob),
		} {
			if _, err := c.ExecContext(ctx, s); err != nil {
				t.Fatal(err)
			}
		}
	}
	one := func(c *sql.Conn, q string) (string, error) {
		var a, b any
		err := c.QueryRowContext(ctx, q).Scan(&a, &b)
		return fmt.Sprint(a, "|", b), err
	}
	wantCells, err := one(conns[0], `SELECT count(*), sum(value) FROM s`)
	if err != nil {
		t.Fatal(err)
	}
	wantAgg, err := one(conns[0], `SELECT count + null_count, sum FROM s_agg`)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 10 {
				switch (i + k) % 3 {
				case 0:
					if got, err := one(c, `SELECT count(*), sum(value) FROM s`); err != nil || got != wantCells {
						t.Errorf("conn %d cells: %v %v, want %v", i, got, err, wantCells)
					}
				case 1:
					if got, err := one(c, `SELECT count + null_count, sum FROM s_agg`); err != nil || got != wantAgg {
						t.Errorf("conn %d agg: %v %v, want %v", i, got, err, wantAgg)
					}
				default:
					if _, err := one(c, `SELECT count, median FROM m_agg`); err == nil {
						t.Errorf("conn %d: no error over a damaged file", i)
					}
				}
			}
		}()
	}
	wg.Wait()
	mu.Lock()
	if warned == 0 {
		t.Error("the damaged file was never skipped with a warning")
	}
	mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
}
