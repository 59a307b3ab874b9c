package tetsql

import (
	"context"
	"database/sql/driver"
	"fmt"
	"io"
	"strings"

	"github.com/tetsql/tetsql/internal/route"
	"github.com/tetsql/tetsql/vtab"
)

// An aggregate query over a cells table (SELECT time, avg(value) FROM t
// GROUP BY time) is answered from the table's _agg companion when every
// part of it means the same there (see internal/route): the companion
// folds whole chunks in Go, where the cells table would pass every
// element through SQLite as a row and sort them.

// routed returns the statement to run for q: its rewrite onto an _agg
// companion when there is one that prepares, else q.
func (c *Conn) routed(ctx context.Context, q string) string {
	if c.noRewrite || !mayRoute(q) {
		return q
	}
	if c.guard != nil {
		defer c.guard.take() // the catalog's statements refused nothing the caller ran
	}
	fp, err := c.schemaFingerprint(ctx)
	if err != nil {
		return q
	}
	if c.routes == nil || c.routes.fingerprint != fp || len(c.routes.m) >= maxRoutes {
		c.routes = &routeCache{fingerprint: fp, m: map[string]string{}, tables: map[[2]string]tableEntry{}}
	}
	if rw, ok := c.routes.m[q]; ok {
		if rw == "" {
			return q
		}
		return rw
	}
	rw, ok := route.Rewrite(q, func(schema, name string) (route.Table, bool) {
		k := [2]string{schema, name}
		if e, ok := c.routes.tables[k]; ok {
			return e.t, e.ok
		}
		t, ok := c.cellsTable(ctx, schema, name)
		if ctx.Err() == nil {
			c.routes.tables[k] = tableEntry{t, ok}
		}
		return t, ok
	})
	if ok {
		if s, err := c.inner.(driver.ConnPrepareContext).PrepareContext(ctx, rw); err != nil {
			c.session.TakeError()
			rw, ok = "", false
		} else {
			s.Close()
		}
	}
	if ctx.Err() == nil {
		c.routes.m[q] = rw
	}
	if !ok {
		return q
	}
	return rw
}

// routeCache remembers the rewrites of a connection's statements for one
// state of its schemas: a statement run again (in a loop, or prepared
// by database/sql for each call) costs a map lookup and the fingerprint.
type routeCache struct {
	fingerprint string
	m           map[string]string // statement → its rewrite, "" = none
	tables      map[[2]string]tableEntry
}

// tableEntry is what the catalog said of a (schema, name) pair.
type tableEntry struct {
	t  route.Table
	ok bool
}

// maxRoutes bounds a connection's route cache; a full cache starts over.
const maxRoutes = 256

// schemaFingerprint identifies the state of the connection's schemas:
// the attached databases, and the schema versions of main and temp (the
// attached files' schemas change only as tetsql attaches them). A table
// created or dropped that could change what a name resolves to changes
// it, and with it every cached rewrite is forgotten.
func (c *Conn) schemaFingerprint(ctx context.Context) (string, error) {
	rows, err := c.query(ctx, `SELECT group_concat(name || ':' || seq, ',') FROM pragma_database_list`)
	if err != nil || len(rows) != 1 {
		return "", fmt.Errorf("tetsql: schema fingerprint: %w", err)
	}
	fp, _ := rows[0][0].(string)
	for _, s := range []string{"main", "temp"} {
		if s == "temp" && !strings.Contains(","+fp, ",temp:") {
			continue // asking would create the temp schema, which then shows in PRAGMA database_list
		}
		v, err := c.query(ctx, `PRAGMA `+s+`.schema_version`)
		if err != nil || len(v) != 1 {
			return "", fmt.Errorf("tetsql: schema fingerprint: %w", err)
		}
		fp += fmt.Sprintf(";%s=%v", s, v[0][0])
	}
	return fp, nil
}

// mayRoute is a cheap test that q could be an aggregate over one table.
func mayRoute(q string) bool {
	if len(q) > 1<<16 {
		return false
	}
	u := strings.ToUpper(q)
	for _, w := range []string{"GROUP", "COUNT", "SUM", "AVG", "MIN", "MAX"} {
		if strings.Contains(u, w) {
			return true
		}
	}
	return false
}

// cellsTable resolves a table name as SQLite does (temp, main, then the
// attached files in order) and describes it when it is a tetsql cells
// table.
func (c *Conn) cellsTable(ctx context.Context, schema, name string) (route.Table, bool) {
	var t route.Table
	rows, err := c.query(ctx, `SELECT l.schema, l.name, l.type FROM pragma_table_list AS l
		JOIN pragma_database_list AS d ON d.name = l.schema
		WHERE l.name = ?1 COLLATE NOCASE AND (?2 = '' OR l.schema = ?2 COLLATE NOCASE)
		ORDER BY CASE d.name WHEN 'temp' THEN -1 ELSE d.seq END LIMIT 1`, name, schema)
	if err != nil || len(rows) != 1 || rows[0][2] != "virtual" {
		return t, false
	}
	t.Schema, name = rows[0][0].(string), rows[0][1].(string)
	sq := `"` + strings.ReplaceAll(t.Schema, `"`, `""`) + `"`
	rows, err = c.query(ctx, `SELECT sql FROM `+sq+`.sqlite_schema WHERE type = 'table' AND name = ?1`, name)
	if err != nil || len(rows) != 1 {
		return t, false
	}
	if s, _ := rows[0][0].(string); !strings.Contains(s, " USING "+vtab.ModuleName+"(") {
		return t, false
	}
	rows, err = c.query(ctx, `SELECT agg_table, dtype, ndim, element_count FROM `+sq+`.tet_datasets WHERE table_name = ?1`, name)
	if err != nil || len(rows) != 1 {
		return t, false
	}
	agg, _ := rows[0][0].(string)
	dtype, _ := rows[0][1].(string)
	ndim, _ := rows[0][2].(int64)
	count, _ := rows[0][3].(int64)
	if agg == "" || dtype == "u64" || ndim < 1 {
		return t, false
	}
	t.Agg = agg
	t.Sum = sumFits(dtype, count)
	cols, err := c.query(ctx, `SELECT name, upper(type) FROM pragma_table_xinfo(?1, ?2)`, name, t.Schema)
	if err != nil || len(cols) < int(ndim)+1 {
		return t, false
	}
	for _, r := range cols[:ndim] {
		d, _ := r[0].(string)
		t.Dims = append(t.Dims, d)
	}
	t.Labels, t.TextLabels = make([]string, ndim), make([]bool, ndim)
	for _, r := range cols[ndim:] {
		l, _ := r[0].(string)
		typ, _ := r[1].(string)
		for a, d := range t.Dims {
			if strings.EqualFold(l, d+"_label") {
				t.Labels[a], t.TextLabels[a] = l, typ != "REAL" && typ != "INTEGER"
			}
		}
	}
	sizes, err := c.query(ctx, `SELECT size FROM `+sq+`.tet_dims WHERE dataset = (SELECT name FROM `+sq+`.tet_datasets WHERE table_name = ?1) ORDER BY axis`, name)
	if err != nil || len(sizes) != int(ndim) {
		return t, false
	}
	for _, r := range sizes {
		n, _ := r[0].(int64)
		t.Sizes = append(t.Sizes, n)
	}
	t.UniqueLabels = make([]bool, ndim)
	for a, l := range t.Labels {
		if l == "" || !t.TextLabels[a] {
			continue
		}
		u, err := c.query(ctx, `SELECT count(*), count(DISTINCT c.label) FROM `+sq+`.tet_coords AS c
			JOIN `+sq+`.tet_dims AS d ON d.dataset = c.dataset AND d.name = c.dim
			WHERE d.axis = ?2 AND c.dataset = (SELECT name FROM `+sq+`.tet_datasets WHERE table_name = ?1)`, name, int64(a))
		if err == nil && len(u) == 1 {
			n, _ := u[0][0].(int64)
			d, _ := u[0][1].(int64)
			t.UniqueLabels[a] = n == t.Sizes[a] && d == n
		}
	}
	aggCols, err := c.query(ctx, `SELECT name FROM pragma_table_xinfo(?1, ?2)`, agg, t.Schema)
	if err != nil {
		return t, false
	}
	for _, r := range aggCols {
		n, _ := r[0].(string)
		t.AggColumns = append(t.AggColumns, n)
		t.AggValue = t.AggValue || strings.EqualFold(n, "value")
	}
	return t, true
}

// sumFits reports whether the companion's sum of a dataset has the type
// and range of SQLite's sum(value): always for floats (both REAL), for
// integers when no sum of the dataset's elements can leave int64 (where
// SQLite's sum fails with "integer overflow").
func sumFits(dtype string, count int64) bool {
	maxAbs := map[string]int64{"i8": 1 << 7, "u8": 1<<8 - 1, "i16": 1 << 15, "u16": 1<<16 - 1, "i32": 1 << 31, "u32": 1<<32 - 1}
	switch dtype {
	case "f16", "f32", "f64":
		return true
	}
	m, ok := maxAbs[dtype]
	return ok && count >= 0 && count <= (1<<63-1)/m
}

// query runs a catalog query on the inner connection and returns its
// rows. Catalog queries are tetsql's own fixed SQL (names in them come
// from SQLite's own lists, quoted), so safe mode's authorizer lets them
// read the pragmas they need; the rewritten statement itself is prepared
// and run under the authorizer like any other.
func (c *Conn) query(ctx context.Context, q string, args ...any) (out [][]driver.Value, err error) {
	err = c.trust(func() error {
		out, err = c.catalogRows(ctx, q, args)
		return err
	})
	return out, err
}

func (c *Conn) catalogRows(ctx context.Context, q string, args []any) ([][]driver.Value, error) {
	nv := make([]driver.NamedValue, len(args))
	for i, a := range args {
		if n, ok := a.(int); ok {
			a = int64(n) // a driver.Value, as database/sql would have converted it
		}
		nv[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
	}
	r, err := c.inner.(driver.QueryerContext).QueryContext(ctx, q, nv)
	if err != nil {
		return nil, fmt.Errorf("tetsql: catalog: %w", err)
	}
	defer r.Close()
	var out [][]driver.Value
	for {
		row := make([]driver.Value, len(r.Columns()))
		if err := r.Next(row); err == io.EOF {
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("tetsql: catalog: %w", err)
		}
		out = append(out, row)
	}
}
