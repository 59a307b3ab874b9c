package main

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"strings"
)

// query is one timed query. Its SQL names the table t (the cells table)
// and t_agg; {P99} stands for the threshold p99Threshold computes.
type query struct{ key, sql string }

// queries are the questions of the benchmark, in the order they are run.
var queries = []query{
	{"totals", "SELECT count, sum, min, max FROM t_agg"},
	{"daily_mean", "SELECT time, mean FROM t_agg('time')"},
	{"lat_mean_month", "SELECT lat, mean FROM t_agg('lat') WHERE time BETWEEN 100 AND 130"},
	{"point_series", "SELECT time, value FROM t WHERE lat = 90 AND lon = 180"},
	{"count_p99", "SELECT count(*) FROM t WHERE value > {P99}"},
	{"top10", "SELECT value FROM t ORDER BY value DESC LIMIT 10"},
	{"day_map", "SELECT lat, lon, value FROM t WHERE time = 200"},
	{"median_day", "SELECT median FROM t_agg WHERE time = 200"},
}

// bind replaces the table names t and t_agg of q by table's, and {P99}.
func bind(q, table, p99 string) string {
	q = strings.ReplaceAll(q, "{P99}", p99)
	q = strings.ReplaceAll(q, "FROM t_agg", "FROM "+table+"_agg")
	return strings.ReplaceAll(q, "FROM t ", "FROM "+table+" ")
}

// p99Threshold is the cube's 0.99 quantile rounded down to 1/1024 plus
// 1/2048: the values are multiples of 1/1024, so none equals it and a
// comparison with it cannot depend on rounding.
func p99Threshold(ctx context.Context, c *sql.Conn, table string) (string, error) {
	var q float64
	if err := c.QueryRowContext(ctx, "SELECT quantile FROM "+table+"_agg('', 0.99)").Scan(&q); err != nil {
		return "", fmt.Errorf("p99: %w", err)
	}
	return strconv.FormatFloat(math.Floor(q*1024)/1024+1.0/2048, 'f', -1, 64), nil
}

// tableName is the cells table of the connection's only dataset.
func tableName(ctx context.Context, c *sql.Conn) (string, error) {
	var n string
	err := c.QueryRowContext(ctx, "SELECT table_name FROM tet_datasets").Scan(&n)
	return n, err
}

// fetch runs q and returns every row, in the order they came.
func fetch(ctx context.Context, c *sql.Conn, q string) ([][]any, error) {
	rows, err := c.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		out = append(out, vals)
	}
	return out, rows.Err()
}

// sorted returns rows sorted by their text when q has no ORDER BY: SQL
// leaves that order to the engine (a day's map comes chunk by chunk, so
// in another order when the chunks differ).
func sorted(q string, rows [][]any) [][]any {
	if strings.Contains(q, "ORDER BY") {
		return rows
	}
	rows = slices.Clone(rows)
	slices.SortFunc(rows, func(a, b []any) int { return cmp.Compare(rowText(a), rowText(b)) })
	return rows
}

func rowText(r []any) string {
	var sb strings.Builder
	for i, v := range r {
		if i > 0 {
			sb.WriteByte('\t')
		}
		sb.WriteString(text(v))
	}
	return sb.String()
}

// digest is the row count and a hash of the rows: equal digests mean
// equal answers. Each row is hashed from its values' bits (cheap enough
// to leave inside a timed fresh run); the row hashes are chained in
// order when q has an ORDER BY and added up otherwise, so that the rows'
// order counts only where SQL defines it.
func digest(q string, rows [][]any) string {
	ordered := strings.Contains(q, "ORDER BY")
	var sum uint64
	var b []byte
	for _, r := range rows {
		h := fnv.New64a()
		for _, v := range r {
			b = appendValue(b[:0], v)
			h.Write(b)
		}
		if ordered {
			sum = sum*1099511628211 + h.Sum64()
		} else {
			sum += h.Sum64()
		}
	}
	return fmt.Sprintf("%d rows %016x", len(rows), sum)
}

// appendValue appends a type tag and v's bits (text for anything but
// numbers and NULL).
func appendValue(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, 'n')
	case int64:
		return binary.LittleEndian.AppendUint64(append(b, 'i'), uint64(x))
	case float64:
		return binary.LittleEndian.AppendUint64(append(b, 'f'), math.Float64bits(x))
	}
	return append(append(b, 's'), text(v)...)
}

func text(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case []byte:
		return string(x)
	}
	return fmt.Sprint(v)
}

// compare says whether b's answer equals a's: "equal" when every value is
// the same, "equal within 1e-9" (with the largest relative difference)
// when only floats differ and by no more, otherwise "DIFFER" and where.
func compare(a, b [][]any) string {
	if len(a) != len(b) {
		return fmt.Sprintf("DIFFER: %d rows vs %d", len(b), len(a))
	}
	worst := 0.0
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return fmt.Sprintf("DIFFER: row %d has %d columns vs %d", i, len(b[i]), len(a[i]))
		}
		for j := range a[i] {
			x, y := a[i][j], b[i][j]
			if text(x) == text(y) {
				continue
			}
			fx, ok1 := x.(float64)
			fy, ok2 := y.(float64)
			if !ok1 || !ok2 {
				return fmt.Sprintf("DIFFER: row %d column %d: %s vs %s", i, j, text(y), text(x))
			}
			rel := math.Abs(fx-fy) / math.Max(math.Abs(fx), math.Abs(fy))
			if !(rel <= 1e-9) {
				return fmt.Sprintf("DIFFER: row %d column %d: %s vs %s (rel %.1e)", i, j, text(y), text(x), rel)
			}
			worst = max(worst, rel)
		}
	}
	if worst > 0 {
		return fmt.Sprintf("equal within 1e-9 (max rel %.1e)", worst)
	}
	return "equal"
}
