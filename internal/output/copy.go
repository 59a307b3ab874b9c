package output

import "database/sql"

// ColumnsOf returns the columns of rows with their declared types.
func ColumnsOf(rows *sql.Rows) ([]Column, error) {
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

// Copy writes the result set rows to w: Header with ColumnsOf(rows), then
// Row for every row. It returns the number of rows written. It calls
// neither w.Close nor rows.Close, so the caller can still report errors
// from both.
func Copy(w Writer, rows *sql.Rows) (int64, error) {
	cols, err := ColumnsOf(rows)
	if err != nil {
		return 0, err
	}
	if err := w.Header(cols); err != nil {
		return 0, err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var n int64
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return n, err
		}
		if err := w.Row(vals); err != nil {
			return n, err
		}
		n++
	}
	return n, rows.Err()
}
