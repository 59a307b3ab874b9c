package sqlitevt_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/tetsql/tetsql/internal/sqlitevt"
)

// series is the test table: CREATE VIRTUAL TABLE t USING series(lo, hi)
// has one row per integer of [lo, hi], with columns value (INTEGER),
// label ('n' || value, TEXT), half (value / 2.0, REAL), data (one byte,
// BLOB) and even (value if even, else NULL). BestIndex consumes
// comparisons on value and ORDER BY value [DESC]; knobs says how, and
// what to break.
type series struct {
	lo, hi int64
	k      *knobs
}

// knobs configures and observes the series tables of one test.
type knobs struct {
	mu      sync.Mutex
	omit    bool   // set Omit on consumed constraints
	inLists bool   // read value IN (…) whole
	panicAt string // callback to panic in
	failAt  string // callback to fail in
	maxIn   int64  // InListFits fails above this many values (0: never)
	stepper bool   // cursors implement sqlitevt.Stepper
	steps   int    // Step calls
	infos   []sqlitevt.IndexInfo
	rhs     [][]any // per BestIndex call, IndexInfo.RHS of each constraint ("?" when unknown)
	filters []filterCall
}

// filterCall is one Filter as the cursor saw it.
type filterCall struct {
	idxNum int
	idxStr string
	vals   []sqlitevt.Value
}

// hit panics or fails if a test asked for it at where.
func (k *knobs) hit(where string) error {
	k.mu.Lock()
	p, f := k.panicAt, k.failAt
	k.mu.Unlock()
	if p == where {
		panic("boom in " + where)
	}
	if f == where {
		return fmt.Errorf("series: %s failed", where)
	}
	return nil
}

// module makes series tables; its tables answer panics themselves
// (PanicHandler) unless plain is set.
type module struct {
	k     *knobs
	plain bool
}

func (m module) Create(ctx sqlitevt.Context, args []string) (sqlitevt.Table, error) {
	if err := m.k.hit("xCreate"); err != nil {
		return nil, err
	}
	return m.Connect(ctx, args)
}

func (m module) Connect(ctx sqlitevt.Context, args []string) (sqlitevt.Table, error) {
	if err := m.k.hit("xConnect"); err != nil {
		return nil, err
	}
	if len(args) != 5 {
		return nil, fmt.Errorf("series: want (lo, hi), got %q", args[3:])
	}
	lo, err1 := strconv.ParseInt(strings.TrimSpace(args[3]), 10, 64)
	hi, err2 := strconv.ParseInt(strings.TrimSpace(args[4]), 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("series: %w", err)
	}
	if err := ctx.Declare("CREATE TABLE x(value INTEGER, label TEXT, half REAL, data BLOB, even INTEGER)"); err != nil {
		return nil, err
	}
	s := &series{lo: lo, hi: hi, k: m.k}
	if m.plain {
		return plainTable{s}, nil
	}
	return s, nil
}

// Panicked implements sqlitevt.PanicHandler for xCreate and xConnect.
func (m module) Panicked(where string, p any) error {
	return fmt.Errorf("series module: recovered in %s: %v", where, p)
}

var opNames = map[sqlitevt.ConstraintOp]string{sqlitevt.OpEQ: "eq", sqlitevt.OpGE: "ge", sqlitevt.OpGT: "gt", sqlitevt.OpLE: "le", sqlitevt.OpLT: "lt"}

// BestIndex consumes every usable comparison on value; idxStr lists
// their operators, and idxNum bit 0 asks for descending order.
func (s *series) BestIndex(info *sqlitevt.IndexInfo) error {
	if err := s.k.hit("xBestIndex"); err != nil {
		return err
	}
	var ops []string
	for i := range info.Constraints {
		c := &info.Constraints[i]
		if name, ok := opNames[c.Op]; ok && c.Usable && c.Column == 0 {
			c.ArgIndex, c.Omit = len(ops), s.k.omit
			ops = append(ops, name)
		}
	}
	info.IdxStr = strings.Join(ops, ",")
	info.EstimatedCost = 1e6 / float64(len(ops)+1)
	if len(info.OrderBy) == 1 && info.OrderBy[0].Column == 0 {
		info.OrderByConsumed = true
		if info.OrderBy[0].Desc {
			info.IdxNum = 1
		}
	}
	var rhs []any
	for i := range info.Constraints {
		v, ok := info.RHS(i)
		if !ok {
			v = "?"
		}
		rhs = append(rhs, v)
	}
	s.k.mu.Lock()
	s.k.infos = append(s.k.infos, *info)
	s.k.rhs = append(s.k.rhs, rhs)
	s.k.mu.Unlock()
	return nil
}

func (s *series) Open() (sqlitevt.Cursor, error) {
	if err := s.k.hit("xOpen"); err != nil {
		return nil, err
	}
	if s.k.stepper {
		return &stepCursor{&cursor{s: s}}, nil
	}
	return &cursor{s: s}, nil
}

// stepCursor is a cursor that also implements sqlitevt.Stepper.
type stepCursor struct{ *cursor }

func (c *stepCursor) Step() (bool, error) {
	c.s.k.mu.Lock()
	c.s.k.steps++
	c.s.k.mu.Unlock()
	if err := c.s.k.hit("xStep"); err != nil {
		return false, err
	}
	c.step()
	c.skip()
	return c.done(), nil
}

func (s *series) Disconnect() error { return s.k.hit("xDisconnect") }
func (s *series) Destroy() error    { return s.k.hit("xDestroy") }

// InListColumn and InListFits implement sqlitevt.InLister.
func (s *series) InListColumn(col int) bool { return s.k.inLists && col == 0 }
func (s *series) InListFits(n, bytes int64) error {
	if s.k.maxIn > 0 && n > s.k.maxIn {
		return fmt.Errorf("series: IN list of %d values (%d bytes) is too long", n, bytes)
	}
	return nil
}

// Refuse implements sqlitevt.Refuser.
func (s *series) Refuse(op string) error {
	if err := s.k.hit("xUpdate"); err != nil {
		return err
	}
	return fmt.Errorf("series: %s refused", op)
}

// Panicked implements sqlitevt.PanicHandler.
func (s *series) Panicked(where string, p any) error {
	return fmt.Errorf("series: recovered in %s: %v", where, p)
}

// plainTable is a series with none of the optional interfaces.
type plainTable struct{ s *series }

func (t plainTable) BestIndex(info *sqlitevt.IndexInfo) error { return t.s.BestIndex(info) }
func (t plainTable) Open() (sqlitevt.Cursor, error)           { return t.s.Open() }
func (t plainTable) Disconnect() error                        { return t.s.Disconnect() }
func (t plainTable) Destroy() error                           { return t.s.Destroy() }

// cursor walks [lo, hi] (only the listed values of an IN list).
type cursor struct {
	s       *series
	lo, hi  int64
	in      map[int64]bool // nil: no IN list
	desc    bool
	v       int64
	started bool
}

func (c *cursor) Filter(idxNum int, idxStr string, vals []sqlitevt.Value) error {
	if err := c.s.k.hit("xFilter"); err != nil {
		return err
	}
	c.s.k.mu.Lock()
	c.s.k.filters = append(c.s.k.filters, filterCall{idxNum, idxStr, append([]sqlitevt.Value(nil), vals...)})
	c.s.k.mu.Unlock()
	c.lo, c.hi, c.in, c.desc = c.s.lo, c.s.hi, nil, idxNum&1 != 0
	ops := strings.Split(idxStr, ",")
	for i, v := range vals {
		if l, ok := v.(sqlitevt.InList); ok {
			c.in = map[int64]bool{}
			for _, x := range l {
				if n, ok := x.(int64); ok {
					c.in[n] = true
				}
			}
			continue
		}
		n, ok := v.(int64)
		if !ok {
			return fmt.Errorf("series: %s: want an integer, got %T", ops[i], v)
		}
		switch ops[i] {
		case "eq":
			c.lo, c.hi = max(c.lo, n), min(c.hi, n)
		case "ge":
			c.lo = max(c.lo, n)
		case "gt":
			c.lo = max(c.lo, n+1)
		case "le":
			c.hi = min(c.hi, n)
		case "lt":
			c.hi = min(c.hi, n-1)
		}
	}
	c.v = c.lo
	if c.desc {
		c.v = c.hi
	}
	c.skip()
	return nil
}

// skip moves past values not in the IN list.
func (c *cursor) skip() {
	for c.in != nil && !c.done() && !c.in[c.v] {
		c.step()
	}
}

func (c *cursor) step() {
	if c.desc {
		c.v--
	} else {
		c.v++
	}
}

func (c *cursor) Next() error {
	if err := c.s.k.hit("xNext"); err != nil {
		return err
	}
	c.step()
	c.skip()
	return nil
}

func (c *cursor) Eof() bool {
	c.s.k.hit("xEof")
	return c.done()
}

func (c *cursor) done() bool { return c.v < c.lo || c.v > c.hi }

func (c *cursor) Column(r *sqlitevt.Result, col int) error {
	if err := c.s.k.hit("xColumn"); err != nil {
		return err
	}
	switch col {
	case 0:
		r.Int64(c.v)
	case 1:
		r.Text("n" + strconv.FormatInt(c.v, 10))
	case 2:
		r.Float64(float64(c.v) / 2)
	case 3:
		r.Blob([]byte{byte(c.v)})
	case 4:
		if c.v%2 == 0 {
			r.Value(c.v)
		} else {
			r.Null()
		}
	}
	return nil
}

func (c *cursor) Rowid() (int64, error) {
	if err := c.s.k.hit("xRowid"); err != nil {
		return 0, err
	}
	return c.v, nil
}

func (c *cursor) Close() error { return c.s.k.hit("xClose") }

// connector opens modernc connections with the series module (plain:
// without the optional interfaces) and the function twice(x).
type connector struct {
	k     *knobs
	plain bool
}

var modernc = func() driver.Driver {
	db, _ := sql.Open("sqlite", "")
	defer db.Close()
	return db.Driver()
}()

func (c connector) Connect(context.Context) (driver.Conn, error) {
	conn, err := modernc.Open(":memory:")
	if err != nil {
		return nil, err
	}
	h, err := sqlitevt.HandleOf(conn)
	if err == nil {
		err = h.CreateModule("series", module{c.k, c.plain})
	}
	if err == nil {
		err = h.CreateFunction("twice", 1, twice)
	}
	if err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

func (c connector) Driver() driver.Driver { return modernc }

// twice(x) is 2*x for numbers, x twice for text and blobs; twice('panic')
// panics and twice('fail') fails.
func twice(r *sqlitevt.Result, args []sqlitevt.Value) error {
	switch x := args[0].(type) {
	case int64:
		r.Int64(2 * x)
	case float64:
		r.Float64(2 * x)
	case string:
		switch x {
		case "panic":
			panic("twice panics")
		case "fail":
			return errors.New("twice: fail")
		}
		r.Text(x + x)
	case []byte:
		r.Blob(append(append([]byte{}, x...), x...))
	default:
		r.Null()
	}
	return nil
}

// open returns a database whose connections have the series module, and
// a table t over [lo, hi]; the pool keeps one connection.
func open(t testing.TB, k *knobs, plain bool, lo, hi int) *sql.DB {
	t.Helper()
	db := sql.OpenDB(connector{k, plain})
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec(fmt.Sprintf("CREATE VIRTUAL TABLE t USING series(%d, %d)", lo, hi)); err != nil {
		t.Fatal(err)
	}
	return db
}

// rows runs q and returns its rows as "a|b|…" strings.
func rows(t testing.TB, db *sql.DB, q string, args ...any) []string {
	t.Helper()
	out, err := query(db, q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return out
}

func query(db *sql.DB, q string, args ...any) ([]string, error) {
	rs, err := db.Query(q, args...)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	cols, _ := rs.Columns()
	var out []string
	for rs.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			return nil, err
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			if b, ok := v.([]byte); ok {
				v = fmt.Sprintf("x%x", b)
			}
			parts[i] = fmt.Sprint(v)
		}
		out = append(out, strings.Join(parts, "|"))
	}
	return out, rs.Err()
}
