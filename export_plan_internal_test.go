package tetsql

import (
	"bytes"
	"context"
	"database/sql"
	"slices"
	"testing"
)

// plainOps is the program of SELECT a, b FROM t with one consumed term.
func plainOps() []planOp {
	return []planOp{
		{op: "Init", p2: 11},
		{op: "VOpen"},
		{op: "Integer", p1: 10, p2: 3},
		{op: "Integer", p1: 1, p2: 1},
		{op: "Integer", p1: 1, p2: 2},
		{op: "VFilter", p2: 10, p3: 1, p4: "v>"},
		{op: "VColumn", p2: 4, p3: 4},
		{op: "VColumn", p2: 0, p3: 5},
		{op: "ResultRow", p1: 4, p2: 2},
		{op: "VNext", p2: 6},
		{op: "Halt"},
		{op: "Transaction", p1: 2, p3: 15},
		{op: "Goto", p2: 1},
	}
}

func TestPlainProjection(t *testing.T) {
	p := plainProjection(plainOps())
	if p == nil || !slices.Equal(p.cols, []int{4, 0}) || p.idxNum != 1 || p.idxStr != "v>" {
		t.Fatalf("plain program: %+v, want cols [4 0], plan 1 v>", p)
	}
	tests := []struct {
		name   string
		change func([]planOp) []planOp
	}{
		{"residual test in the loop", func(o []planOp) []planOp {
			return slices.Insert(o, 7, planOp{op: "Le", p1: 6, p2: 9, p3: 3})
		}},
		{"expression in the loop", func(o []planOp) []planOp { o[7].op = "Multiply"; return o }},
		{"limit after the row", func(o []planOp) []planOp { return slices.Insert(o, 9, planOp{op: "DecrJumpZero", p1: 1, p2: 10}) }},
		{"registers out of order", func(o []planOp) []planOp { o[7].p3 = 4; o[6].p3 = 5; return o }},
		{"another cursor's column", func(o []planOp) []planOp { o[7].p1 = 1; return o }},
		{"loop jumps elsewhere", func(o []planOp) []planOp { o[9].p2 = 7; return o }},
		{"empty jump elsewhere", func(o []planOp) []planOp { o[5].p2 = 11; return o }},
		{"second cursor", func(o []planOp) []planOp { return slices.Insert(o, 2, planOp{op: "OpenRead", p1: 1}) }},
		{"second result row", func(o []planOp) []planOp { o[12] = planOp{op: "ResultRow", p1: 4, p2: 2}; return o }},
		{"sorter", func(o []planOp) []planOp { o[11].op = "SorterOpen"; return o }},
		{"function in the init section", func(o []planOp) []planOp { o[11].op = "Function"; return o }},
		{"idxNum not a constant", func(o []planOp) []planOp { o[3].op = "Variable"; return o }},
		{"no result columns", func(o []planOp) []planOp { o[8].p2 = 0; return slices.Delete(o, 6, 8) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if p := plainProjection(tc.change(plainOps())); p != nil {
				t.Errorf("taken as a plain projection: %+v", p)
			}
		})
	}
}

// TestExportPlanMismatch: a cursor whose Filter plan is not the one
// EXPLAIN showed declines, and the rows go the ordinary way, all of them.
func TestExportPlanMismatch(t *testing.T) {
	db, err := sql.Open("tetsql", "testdata/demo.tet")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const q = "SELECT * FROM temperature WHERE value > 10"
	for _, tamper := range []func(*fastPlan){
		func(p *fastPlan) { p.idxStr += "x" },
		func(p *fastPlan) { p.idxNum++ },
	} {
		e, err := NewExport(ctx, conn, q)
		if err != nil || !e.Fast() {
			t.Fatalf("NewExport: %v, fast %v", err, e != nil && e.Fast())
		}
		tamper(e.plan)
		var buf bytes.Buffer
		n, err := e.WriteParquet(ctx, &buf, ParquetOptions{})
		if err != nil || e.took {
			t.Fatalf("err %v, fast path taken %v", err, e.took)
		}
		var want int64
		if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM temperature WHERE value > 10").Scan(&want); err != nil {
			t.Fatal(err)
		}
		if n != want || want == 0 {
			t.Errorf("%d rows, want %d", n, want)
		}
	}
}
