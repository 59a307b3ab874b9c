package tetsql

import (
	"database/sql"
	"fmt"
)

// Every export (Parquet, Arrow) shares the column kinds of
// parquet_types.go (declared SQL types by SQLite's affinity rules, else
// the first non-NULL value) and this scan, so all type a result alike.

// scanResultRows reads rows to the end for an export (format names it
// in errors). Columns of unknown kind take it from their first non-NULL
// value; the rows read meanwhile are held (at most min(holdRows,
// ParquetInferRows) rows and about ParquetGroupBytes of TEXT and BLOB),
// then start is called once with
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
	var held int64 // TEXT and BLOB bytes in pending: held up to ParquetGroupBytes
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
		for _, v := range vals {
			held += varSize(v)
		}
		if known || int64(len(pending)) == min(holdRows, ParquetInferRows) || held >= ParquetGroupBytes {
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

// u64RealHint says why a REAL of 2^63 or more is refused in a UINT64
// column: SQLite holds a u64 above 2^63-1 as a REAL rounded to 53 bits,
// so the value it stands for is not known; only the fast path, reading
// the file, has it.
const u64RealHint = "a u64 above 2^63-1 reaches SQL as a REAL rounded to 53 bits, its exact value lost; " +
	"export it with a plain projection into one file or stream (that path reads it exactly from the file), or CAST it to REAL"
