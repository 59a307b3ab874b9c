package sqlitevt_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/tetsql/tetsql/internal/sqlitevt"
)

// upto is an eponymous-only table: upto(n) has the rows 1…n in column
// value; n is the HIDDEN column n.
type upto struct {
	mu   sync.Mutex
	args [][]string // Connect's arguments, per call
	n    int64
	row  int64
}

func (u *upto) Create(sqlitevt.Context, []string) (sqlitevt.Table, error) {
	return nil, fmt.Errorf("upto: Create called")
}

func (u *upto) Connect(ctx sqlitevt.Context, args []string) (sqlitevt.Table, error) {
	u.mu.Lock()
	u.args = append(u.args, args)
	u.mu.Unlock()
	return u, ctx.Declare("CREATE TABLE x(value INTEGER, n HIDDEN)")
}

func (u *upto) BestIndex(info *sqlitevt.IndexInfo) error {
	info.EstimatedCost = 1e12
	for i := range info.Constraints {
		if c := &info.Constraints[i]; c.Column == 1 && c.Op == sqlitevt.OpEQ && c.Usable {
			c.ArgIndex, c.Omit = 0, true
			info.IdxNum, info.EstimatedCost = 1, 1
		}
	}
	return nil
}

func (u *upto) Open() (sqlitevt.Cursor, error) { return u, nil }
func (u *upto) Disconnect() error              { return nil }
func (u *upto) Destroy() error                 { return nil }

func (u *upto) Filter(idxNum int, _ string, vals []sqlitevt.Value) error {
	if idxNum != 1 {
		return fmt.Errorf("upto: needs n")
	}
	u.n = vals[0].(int64)
	u.row = 1
	return nil
}
func (u *upto) Next() error           { u.row++; return nil }
func (u *upto) Eof() bool             { return u.row > u.n }
func (u *upto) Rowid() (int64, error) { return u.row, nil }
func (u *upto) Close() error          { return nil }
func (u *upto) Column(r *sqlitevt.Result, col int) error {
	if col == 0 {
		r.Int64(u.row)
	} else {
		r.Int64(u.n)
	}
	return nil
}

type uptoConnector struct{ u *upto }

func (c uptoConnector) Connect(context.Context) (driver.Conn, error) {
	conn, err := modernc.Open(":memory:")
	if err != nil {
		return nil, err
	}
	h, err := sqlitevt.HandleOf(conn)
	if err == nil {
		err = h.CreateEponymousModule("upto", c.u)
	}
	if err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

func (c uptoConnector) Driver() driver.Driver { return modernc }

func TestEponymousModule(t *testing.T) {
	u := &upto{}
	db := sql.OpenDB(uptoConnector{u})
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	if got := rows(t, db, "SELECT group_concat(value, ',') FROM upto(4)"); !reflect.DeepEqual(got, []string{"1,2,3,4"}) {
		t.Errorf("upto(4): %q", got)
	}
	if got := rows(t, db, "SELECT value FROM main.upto WHERE n = 2"); !reflect.DeepEqual(got, []string{"1", "2"}) {
		t.Errorf("WHERE n = 2: %q", got)
	}
	if _, err := db.Exec("CREATE VIRTUAL TABLE temp.t USING upto(3)"); err == nil || strings.Contains(err.Error(), "Create called") {
		t.Errorf("CREATE VIRTUAL TABLE: %v, want SQLite's refusal", err)
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(u.args) == 0 || !reflect.DeepEqual(u.args[0], []string{"upto", "main", "upto"}) {
		t.Errorf("Connect args %q", u.args)
	}
}
