package tetsql

import (
	"context"
	"database/sql"
	"strings"
)

// The fast export path takes a cells scan's rows without SQLite's
// per-row work, which is exact only when SQLite would have done nothing
// to them but copy columns out: no residual WHERE term, no ORDER BY,
// LIMIT, DISTINCT, join, subquery or expression. fastColumns decides
// that from the statement's compiled program (EXPLAIN), not from the SQL
// text, so every rule of SQLite's planner is SQLite's own: the program
// must be exactly
//
//	Init; [Transaction …]; VOpen C; <argument loads>; VFilter C, end;
//	loop: VColumn C, col_0, r; … VColumn C, col_k, r+k; ResultRow r, k+1;
//	VNext C, loop; end: Halt
//
// with argument loads and the Init section made only of constant and
// variable loads. Anything else, and any doubt, is the ordinary path.

// planOp is one instruction of an EXPLAIN listing.
type planOp struct {
	op         string
	p1, p2, p3 int64
	p4         string
}

// fastPlan is what fastColumns found: the cursor column of each result
// column, and the plan SQLite passes to the cursor's Filter (idxNum,
// idxStr), which the cursor must see again when the statement runs.
type fastPlan struct {
	cols   []int
	idxNum int64
	idxStr string
}

// loadOps are the instructions allowed outside the loop: loads of
// constants, parameters and copies into registers, and control flow of
// the program's frame.
var loadOps = map[string]bool{
	"Init": true, "Goto": true, "Halt": true, "Transaction": true, "TableLock": true,
	"Integer": true, "Int64": true, "Real": true, "String8": true, "String": true,
	"Null": true, "Variable": true, "Copy": true, "SCopy": true,
}

// fastColumns returns the plan of query when its program is a plain
// projection of one virtual table's cursor (see above), else nil.
func fastColumns(ctx context.Context, conn *sql.Conn, query string) *fastPlan {
	// One SELECT: EXPLAIN of a text holding a second statement would
	// run that one.
	q := strings.TrimRight(strings.TrimSpace(query), "; \t\r\n")
	if !strings.EqualFold(firstWord(q), "SELECT") || strings.Contains(q, ";") {
		return nil
	}
	rows, err := conn.QueryContext(ctx, "EXPLAIN "+q)
	if err != nil {
		return nil
	}
	defer rows.Close()
	var ops []planOp
	for rows.Next() {
		var addr int64
		var o planOp
		var p4 sql.NullString
		var p5, comment any
		if err := rows.Scan(&addr, &o.op, &o.p1, &o.p2, &o.p3, &p4, &p5, &comment); err != nil || addr != int64(len(ops)) {
			return nil
		}
		o.p4 = p4.String
		ops = append(ops, o)
	}
	if rows.Err() != nil {
		return nil
	}
	return plainProjection(ops)
}

// plainProjection checks ops against the shape above and returns the
// cursor columns the ResultRow outputs, in order, with the Filter's plan.
func plainProjection(ops []planOp) *fastPlan {
	find := func(name string) int {
		at := -1
		for i, o := range ops {
			if o.op == name {
				if at >= 0 {
					return -2 // twice
				}
				at = i
			}
		}
		return at
	}
	open, filter, next, result := find("VOpen"), find("VFilter"), find("VNext"), find("ResultRow")
	if open < 0 || filter < open || next < filter || result < filter || result > next {
		return nil
	}
	cur := ops[open].p1
	if ops[filter].p1 != cur || ops[next].p1 != cur || ops[next].p2 != int64(filter+1) || ops[filter].p2 != int64(next+1) {
		return nil
	}
	for i, o := range ops {
		if i == open || i == filter || i == next || (i > filter && i <= result) {
			continue
		}
		if !loadOps[o.op] || (i > result && i < next) {
			return nil
		}
	}
	// The loop body: VColumn per result column into consecutive
	// registers, then the ResultRow of exactly those registers.
	r := ops[result]
	body := ops[filter+1 : result]
	if int64(len(body)) != r.p2 || r.p2 == 0 {
		return nil
	}
	cols := make([]int, len(body))
	for k, o := range body {
		if o.op != "VColumn" || o.p1 != cur || o.p3 != r.p1+int64(k) || o.p2 < 0 {
			return nil
		}
		cols[k] = int(o.p2)
	}
	// idxNum is loaded into VFilter's P3 register by an Integer before it.
	f := ops[filter]
	for i := filter - 1; i > open; i-- {
		if ops[i].p2 == f.p3 {
			if ops[i].op != "Integer" {
				return nil
			}
			return &fastPlan{cols: cols, idxNum: ops[i].p1, idxStr: f.p4}
		}
	}
	return nil
}
