package tetsql

import (
	"database/sql"
	"fmt"
	"strings"
)

// Every export (Parquet, Arrow) shares the column kinds of
// parquet_types.go (declared SQL types by SQLite's affinity rules, else
// the first non-NULL value) and this scan, so all type a result alike.

// scanResultRows reads rows to the end for an export (format names it
// in errors). Columns of unknown kind take it from their first non-NULL
// value; the rows read meanwhile are held (at most min(holdRows,
// ParquetInferRows)), then start is called once with
// every kind known (a column NULL throughout becomes STRING) and every
// row, held ones first, goes to emit in order. emit may keep vals only
// until it returns.
func scanResultRows(rows *sql.Rows, cols []parquetColumn, holdRows int64, format string, start func() error, emit func(vals []any) error) error {
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var pending [][]any
	started := false
	begin := func() error {
		for i := range cols {
			if cols[i].kind == pqUnknown { // NULL in every row so far
				cols[i].kind = pqString
			}
		}
		started = true
		if err := start(); err != nil {
			return err
		}
		for _, r := range pending {
			if err := emit(r); err != nil {
				return err
			}
		}
		pending = nil
		return nil
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return fmt.Errorf("%s: %w", format, err)
		}
		if started {
			if err := emit(vals); err != nil {
				return err
			}
			continue
		}
		known := true
		for i := range cols {
			known = cols[i].infer(vals[i]) && known
		}
		pending = append(pending, append([]any(nil), vals...))
		if known || int64(len(pending)) == min(holdRows, ParquetInferRows) {
			if err := begin(); err != nil {
				return err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%s: %w", format, err)
	}
	if !started {
		return begin()
	}
	return nil
}

// declaredIntType reads the integer dtype names a column may be declared
// with (INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64, case
// aside) as a width and signedness; ok is false for any other name, such
// as INTEGER or BIGINT, whose values are just 64-bit integers.
func declaredIntType(decl string) (bits int, signed, ok bool) {
	t := strings.ToUpper(strings.TrimSpace(decl))
	signed = !strings.HasPrefix(t, "U")
	t = strings.TrimPrefix(t, "U")
	switch t {
	case "INT8":
		return 8, signed, true
	case "INT16":
		return 16, signed, true
	case "INT32":
		return 32, signed, true
	case "INT64":
		return 64, signed, true
	}
	return 0, false, false
}
