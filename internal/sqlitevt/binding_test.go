package sqlitevt_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tetsql/tetsql/internal/sqlitevt"
)

func TestColumns_everyKind(t *testing.T) {
	db := open(t, &knobs{}, false, 1, 4)
	got := rows(t, db, "SELECT rowid, value, label, half, data, even, typeof(half), typeof(data), typeof(even) FROM t")
	want := []string{
		"1|1|n1|0.5|x01|<nil>|real|blob|null",
		"2|2|n2|1|x02|2|real|blob|integer",
		"3|3|n3|1.5|x03|<nil>|real|blob|null",
		"4|4|n4|2|x04|4|real|blob|integer",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestBestIndex_marshalling reads back what BestIndex saw and what
// Filter then received.
func TestBestIndex_marshalling(t *testing.T) {
	k := &knobs{omit: true}
	db := open(t, k, false, 1, 100)
	k.infos, k.filters = nil, nil
	got := rows(t, db, "SELECT value FROM t WHERE value >= ? AND value < 9 AND label = 'N5' COLLATE NOCASE ORDER BY value DESC", 3)
	if !slices.Equal(got, []string{"5"}) {
		t.Fatalf("rows %v", got)
	}
	var info *sqlitevt.IndexInfo
	for i := range k.infos { // the plan with every constraint usable
		if in := &k.infos[i]; len(in.Constraints) == 3 && in.Constraints[0].Usable && in.Constraints[1].Usable {
			info = in
		}
	}
	if info == nil {
		t.Fatalf("no plan with the three constraints: %+v", k.infos)
	}
	type con struct {
		col  int
		op   sqlitevt.ConstraintOp
		coll string
	}
	var cons []con
	for _, c := range info.Constraints {
		cons = append(cons, con{c.Column, c.Op, c.Collation})
	}
	slices.SortFunc(cons, func(a, b con) int { return int(a.op) - int(b.op) })
	want := []con{{1, sqlitevt.OpEQ, "NOCASE"}, {0, sqlitevt.OpLT, "BINARY"}, {0, sqlitevt.OpGE, "BINARY"}}
	if !slices.Equal(cons, want) {
		t.Errorf("constraints %+v, want %+v", cons, want)
	}
	if !slices.Equal(info.OrderBy, []sqlitevt.OrderBy{{Column: 0, Desc: true}}) {
		t.Errorf("order by %+v", info.OrderBy)
	}
	if info.ColUsed != 0b11 {
		t.Errorf("colUsed %b, want 11 (value and label)", info.ColUsed)
	}
	f := k.filters[len(k.filters)-1]
	// The consumed terms arrive in ArgIndex order, the bound ? included.
	if f.idxNum != 1 || len(f.vals) != 2 || !strings.Contains(f.idxStr, "ge") || !strings.Contains(f.idxStr, "lt") {
		t.Errorf("filter %+v", f)
	}
}

// TestBestIndex_rhs: BestIndex sees the right-hand values SQLite knows
// while planning (literals), and only those.
func TestBestIndex_rhs(t *testing.T) {
	k := &knobs{}
	db := open(t, k, false, 1, 10)
	k.infos, k.rhs = nil, nil
	rows(t, db, "SELECT value FROM t WHERE value > 3 AND label = 'n5' AND value < (SELECT 7 + abs(random() % 1))")
	if len(k.rhs) == 0 {
		t.Fatal("no BestIndex call")
	}
	got := map[string]bool{}
	for _, r := range k.rhs {
		for _, v := range r {
			got[fmt.Sprint(v)] = true
		}
	}
	if !got["3"] || !got["n5"] || !got["?"] {
		t.Errorf("right-hand values %v: want 3 and n5 known, the subquery's unknown", k.rhs)
	}
	if _, ok := (&sqlitevt.IndexInfo{Constraints: make([]sqlitevt.Constraint, 1)}).RHS(0); ok {
		t.Error("RHS known on an IndexInfo the binding did not make")
	}
}

// TestBestIndex_omit: without Omit SQLite re-checks every term, so a
// cursor that ignores one is still answered exactly; with Omit it is
// trusted (and here, deliberately, wrong).
func TestBestIndex_omit(t *testing.T) {
	for _, omit := range []bool{false, true} {
		k := &knobs{omit: omit}
		db := open(t, k, false, 1, 10)
		// "ne" is not consumed; "gt" is, and the cursor honours it.
		got := rows(t, db, "SELECT value FROM t WHERE value > 7 AND value != 9")
		if !slices.Equal(got, []string{"8", "10"}) {
			t.Errorf("omit=%v: %v", omit, got)
		}
		// A text argument the cursor refuses is a Filter error either way.
		if _, err := query(db, "SELECT value FROM t WHERE value > 'x'"); err == nil || !strings.Contains(err.Error(), "want an integer, got string") {
			t.Errorf("omit=%v: text argument: %v", omit, err)
		}
	}
}

func TestInList_readWhole(t *testing.T) {
	for _, whole := range []bool{false, true} {
		k := &knobs{omit: true, inLists: whole}
		db := open(t, k, false, 1, 100)
		k.filters = nil
		got := rows(t, db, "SELECT value FROM t WHERE value IN (9, 2, 4, 4, 500) ORDER BY value")
		if !slices.Equal(got, []string{"2", "4", "9"}) {
			t.Errorf("whole=%v: %v", whole, got)
		}
		n := len(k.filters)
		if whole && (n != 1 || len(k.filters[0].vals) != 1) {
			t.Fatalf("read whole: %d Filter calls %+v, want one with one InList", n, k.filters)
		}
		if whole {
			l, ok := k.filters[0].vals[0].(sqlitevt.InList)
			if !ok || len(l) != 4 {
				t.Errorf("IN list %#v, want the 4 distinct values", k.filters[0].vals[0])
			}
		}
		if !whole && n < 4 {
			t.Errorf("one Filter per value: %d calls", n)
		}
	}
}

func TestInList_fits(t *testing.T) {
	k := &knobs{omit: true, inLists: true, maxIn: 50_000}
	db := open(t, k, false, 1, 1_000_000)
	q := "WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM s WHERE x < %d) SELECT count(*) FROM t WHERE value IN (SELECT x FROM s)"
	if got := rows(t, db, fmt.Sprintf(q, 40_000)); got[0] != "40000" {
		t.Fatalf("40000 values: %v", got)
	}
	_, err := query(db, fmt.Sprintf(q, 100_000))
	if err == nil || !strings.Contains(err.Error(), "values") || !strings.Contains(err.Error(), "is too long") {
		t.Fatalf("100000 values: %v", err)
	}
}

func TestFunction(t *testing.T) {
	db := open(t, &knobs{}, false, 1, 3)
	got := rows(t, db, "SELECT twice(value), twice(half), twice(label), twice(data), twice(NULL) FROM t WHERE value = 3")
	if !slices.Equal(got, []string{"6|3|n3n3|x0303|<nil>"}) {
		t.Fatalf("twice: %v", got)
	}
	for arg, msg := range map[string]string{"fail": "twice: fail", "panic": "sqlitevt: panic in twice: twice panics"} {
		if _, err := query(db, "SELECT twice(?)", arg); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("twice(%s): %v, want %q", arg, err, msg)
		}
	}
	if got := rows(t, db, "SELECT twice(21)"); got[0] != "42" {
		t.Errorf("after the errors: %v", got)
	}
}

// TestLive_backToZero: closing the databases frees every module,
// function, table and cursor, also after errors and panics.
func TestLive_backToZero(t *testing.T) {
	before := sqlitevt.Live()
	k := &knobs{}
	db := open(t, k, false, 1, 1000)
	rs, err := db.Query("SELECT value FROM t")
	if err != nil {
		t.Fatal(err)
	}
	rs.Next()
	if n := sqlitevt.Live(); n < before+4 { // module, function, table, cursor
		t.Errorf("open: %d live, before %d", n, before)
	}
	rs.Close()
	for _, where := range []string{"xClose", "xFilter", "xEof"} {
		k.panicAt = where
		query(db, "SELECT value FROM t")
		k.panicAt = ""
	}
	db.Close()
	if n := sqlitevt.Live(); n != before {
		t.Errorf("closed: %d live, want %d", n, before)
	}
}

// TestRace runs many connections at once (run with -race).
func TestRace(t *testing.T) {
	t.Parallel()
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		db := open(t, &knobs{omit: true, inLists: g%2 == 0}, g == 3, 1, 2000)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				for q, want := range map[string]string{
					"SELECT sum(value), count(*) FROM t":                      "2001000|2000",
					"SELECT group_concat(label) FROM t WHERE value IN (3, 7)": "n3,n7",
					"SELECT sum(half) FROM t WHERE value BETWEEN 1 AND 4":     "5",
					"SELECT twice(max(value)) FROM t":                         "4000",
				} {
					got, err := query(db, q)
					if err != nil || len(got) != 1 || got[0] != want {
						t.Errorf("%s: %v %v, want %s", q, got, err, want)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

// TestStepper: a cursor implementing Stepper is stepped by Step alone,
// with the same rows as Next and Eof give, and Step's errors and panics
// fail the statement with their message.
func TestStepper(t *testing.T) {
	k := &knobs{stepper: true}
	db := open(t, k, false, 1, 100)
	if got := rows(t, db, "SELECT count(*), sum(value) FROM t WHERE value BETWEEN 3 AND 7"); got[0] != "5|25" {
		t.Errorf("count, sum = %v, want 5|25", got)
	}
	if k.steps != 5 {
		t.Errorf("%d Step calls, want 5 (one per row after the first)", k.steps)
	}
	k.failAt = "xStep"
	if _, err := query(db, "SELECT value FROM t"); err == nil || !strings.Contains(err.Error(), "series: xStep failed") {
		t.Errorf("failing Step: %v", err)
	}
	k.failAt, k.panicAt = "", "xStep"
	if _, err := query(db, "SELECT value FROM t"); err == nil || !strings.Contains(err.Error(), "boom in xStep") {
		t.Errorf("panicking Step: %v", err)
	}
	k.panicAt = ""
	if got := rows(t, db, "SELECT count(*) FROM t"); got[0] != "100" {
		t.Errorf("after: %v", got)
	}
}

// TestBestIndex_distinctAndLimitValues: BestIndex sees
// sqlite3_vtab_distinct (1 for GROUP BY, 2 for DISTINCT, 0 for a plain
// ORDER BY) and the right-hand side of LIMIT and OFFSET: literals, and a
// bound parameter (SQLite plans with its value and prepares again when
// another is bound), but not a negative literal (no limit).
func TestBestIndex_distinctAndLimitValues(t *testing.T) {
	k := &knobs{}
	db := open(t, k, false, 1, 10)
	for _, tc := range []struct {
		q        string
		distinct int
		rhs      []sqlitevt.Value // of OFFSET and LIMIT, in SQLite's order
	}{
		{"SELECT value FROM t ORDER BY value", 0, nil},
		{"SELECT value, count(*) FROM t GROUP BY value", 1, nil},
		{"SELECT DISTINCT value FROM t", 2, nil},
		{"SELECT value FROM t ORDER BY value LIMIT 3 OFFSET 2", 0, []sqlitevt.Value{int64(2), int64(3)}},
		{"SELECT value FROM t LIMIT ?", 0, []sqlitevt.Value{int64(4)}},
		{"SELECT value FROM t LIMIT -1", 0, []sqlitevt.Value{nil}},
	} {
		k.infos = nil
		rows(t, db, tc.q, 4)
		if len(k.infos) == 0 {
			t.Fatalf("%s: no BestIndex", tc.q)
		}
		info := k.infos[len(k.infos)-1]
		var rhs []sqlitevt.Value
		for _, c := range info.Constraints {
			if c.Op == sqlitevt.OpLIMIT || c.Op == sqlitevt.OpOFFSET {
				rhs = append(rhs, c.RHS)
			}
		}
		if info.Distinct != tc.distinct || !slices.Equal(rhs, tc.rhs) {
			t.Errorf("%s: distinct %d, LIMIT/OFFSET values %v; want %d, %v", tc.q, info.Distinct, rhs, tc.distinct, tc.rhs)
		}
	}
}
