package output

import (
	"database/sql"
	"strings"
)

// columnsOf returns the columns of rows with their declared types.
func columnsOf(rows *sql.Rows) ([]Column, error) {
	types, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	cols := make([]Column, len(types))
	for i, t := range types {
		cols[i] = Column{Name: t.Name(), Type: t.DatabaseTypeName()}
	}
	return cols, nil
}

// Copy writes the result set rows to w: Header with columnsOf(rows), then
// Row for every row. It returns the number of rows written. It calls
// neither w.Close nor rows.Close, so the caller can still report errors
// from both.
func Copy(w Writer, rows *sql.Rows) (int64, error) {
	cols, err := columnsOf(rows)
	if err != nil {
		return 0, err
	}
	if err := w.Header(cols); err != nil {
		return 0, err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	var single []int // columns declared FLOAT32 or FLOAT16: single precision
	for i := range vals {
		ptrs[i] = &vals[i]
		// Not FLOAT: a native table's FLOAT is a double, whose value
		// 0.699999988079071 must not print as 0.7.
		if strings.EqualFold(cols[i].Type, "FLOAT32") || strings.EqualFold(cols[i].Type, "FLOAT16") {
			single = append(single, i)
		}
	}
	var n int64
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return n, err
		}
		for _, i := range single {
			// An f32 value widened to REAL prints as the f32 it is
			// (0.7, not 0.699999988079071).
			if f, ok := vals[i].(float64); ok && float64(float32(f)) == f {
				vals[i] = float32(f)
			}
		}
		if err := w.Row(vals); err != nil {
			return n, err
		}
		n++
	}
	return n, rows.Err()
}
