package tetsql

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/tetsql/tetsql/internal/colbatch"
	"github.com/tetsql/tetsql/internal/sqlitevt"
	"github.com/tetsql/tetsql/vtab"
)

// Export is a query to be written out (NewExport). Its writers
// (WriteParquet) run it and take its rows column by column straight from
// a cells scan when the query is a plain projection of one cells table
// whose every WHERE term the table applies itself; otherwise they read
// the rows through database/sql, like the functions of the same name.
// The output is the same either way.
type Export struct {
	conn  *sql.Conn
	query string
	args  []any
	names []string // result columns, as SQLite names them
	decls []string // their declared types ("" for an expression)
	cols  []int    // table column of each result column on the fast path; nil: none
	plan  *fastPlan
	c     *Conn // the tetsql connection
	took  bool  // a writer took the rows from the scan
	// routable: the driver may rewrite the query (route.go), so the
	// program run may not be the one EXPLAIN shows.
	routable bool
}

// NewExport prepares query on conn, which must be a connection of a
// tetsql database, without running it: a writer of the Export runs it.
// conn must stay open and otherwise unused until the writer returns.
func NewExport(ctx context.Context, conn *sql.Conn, query string, args ...any) (*Export, error) {
	e := &Export{conn: conn, query: query, args: args}
	err := conn.Raw(func(dc any) error {
		c, ok := dc.(*Conn)
		if !ok {
			return errors.New("tetsql: export: not a tetsql connection")
		}
		if err := c.precheck(query); err != nil {
			return err
		}
		h, err := sqlitevt.HandleOf(c.inner)
		if err != nil {
			return err
		}
		e.c = c
		e.routable = !c.noRewrite && mayRoute(query)
		e.names, e.decls, err = h.Describe(query)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("tetsql: export: %w", err)
	}
	// The plan EXPLAIN shows is the plan of the same text: not with
	// arguments, nor with a text the driver may rewrite onto an _agg.
	if len(args) == 0 && !e.routable {
		if e.plan = fastColumns(ctx, conn, query); e.plan != nil {
			e.cols = e.plan.cols
		}
		if len(e.cols) != len(e.names) || !fastTypes(e.decls) {
			e.cols, e.plan = nil, nil
		}
	}
	return e, nil
}

// Columns are the names of the result columns (none for a statement
// that returns no rows).
func (e *Export) Columns() []string { return e.names }

// Fast reports whether the writers may take the rows straight from a
// cells scan (they still fall back if the table's cursor cannot).
func (e *Export) Fast() bool { return e.cols != nil }

// fastTypes reports whether every declared type lets the fast path
// deliver exactly what database/sql would: not a time label (which the
// driver turns into a time.Time) and not undeclared.
func fastTypes(decls []string) bool {
	for _, t := range decls {
		switch t {
		case "", vtab.DeclDateLabels, vtab.DeclDateTimeLabels:
			return false
		}
	}
	return true
}

// run runs the query. With the fast path, fn is armed on the session
// around the statement's first step (modernc takes it inside
// QueryContext, where the cells cursor's Filter runs): took reports
// whether fn received the rows, and fn's error is returned. Otherwise,
// or if the table's cursor declined, rows are to be read through
// database/sql; the caller closes them.
func (e *Export) run(ctx context.Context, fn vtab.ExportFunc) (rows *sql.Rows, took bool, err error) {
	if e.cols == nil {
		rows, err = e.conn.QueryContext(ctx, e.query, e.args...)
		return rows, false, err
	}
	var ferr error
	sess := e.c.session
	sess.ArmExport(func(es *vtab.ExportScan) (bool, error) {
		// The cursor runs the plan EXPLAIN showed, or is not the one.
		if n, s := es.Plan(); int64(n) != e.plan.idxNum || s != e.plan.idxStr {
			return false, nil
		}
		taken, err := fn(es)
		ferr = err
		return taken, err
	})
	rows, err = e.conn.QueryContext(ctx, e.query)
	took = sess.DisarmExport()
	e.took = took
	if !took {
		return rows, false, err
	}
	if err == nil {
		more := rows.Next()
		if err = rows.Err(); err == nil && more {
			err = errors.New("tetsql: export: rows returned after an export took the scan")
		}
		rows.Close()
	}
	if ferr != nil {
		err = ferr
	}
	return nil, true, err
}

// checkRows fails a result with more rows than the connection's limit,
// as reading it through database/sql would.
func (e *Export) checkRows(n int64) error {
	if m := e.c.maxRows; m > 0 && n > m {
		return &MaxRowsError{Limit: m}
	}
	return nil
}

// scanVecs returns one vector per result column for the scan's values,
// or nil when a column's export type does not take them as the ordinary
// path would (the writer then declines the scan).
func (e *Export) scanVecs(es *vtab.ExportScan, cols []parquetColumn) []colbatch.Vec {
	vecs := make([]colbatch.Vec, len(cols))
	for j := range cols {
		vecs[j].Kind = es.Kind(e.cols[j])
		if !cols[j].holds(vecs[j].Kind) {
			return nil
		}
	}
	return vecs
}

// pump reads the scan into vecs batch by batch until it ends (or stop
// reports a writer's failure, or an error): room is the most rows of the
// next batch, write takes the m rows filled (before rows ahead of them).
// It enforces the connection's row limit, reports progress, and returns
// the number of rows written.
func (e *Export) pump(es *vtab.ExportScan, vecs []colbatch.Vec, room func() int, stop func() bool,
	write func(m int, before int64) error, progress func(int64)) (n int64, err error) {
	for stop == nil || !stop() {
		for j := range vecs {
			vecs[j].Reset()
		}
		m, err := es.Fill(vecs, e.cols, room())
		if m == 0 {
			return n, err
		}
		if err := e.checkRows(n + int64(m)); err != nil {
			return n, err
		}
		if err := write(m, n); err != nil {
			return n, err
		}
		n += int64(m)
		progress(int64(m))
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
