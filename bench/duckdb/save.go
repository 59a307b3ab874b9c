package main

import (
	"bufio"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"
)

// errSkip marks a query that failed before and is not run again.
var errSkip = errors.New("skipped")

// saveRows runs q and reads every row; path != "" writes them to path, tab-separated, in the
// format bench/anbench writes for tetsql (integers as integers, floats
// in the shortest form that reads back exactly, FLOAT widened to
// double as SQLite's REAL is, NULL as NULL), so the two can be compared
// row by row.
func saveRows(db *sql.DB, q, path string) error {
	rows, err := db.Query(q)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	var w *bufio.Writer
	if path != "" {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		defer f.Close()
		w = bufio.NewWriter(f)
		defer w.Flush()
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var line []byte
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		if w == nil {
			continue
		}
		line = line[:0]
		for i, v := range vals {
			if i > 0 {
				line = append(line, '\t')
			}
			switch v := v.(type) {
			case nil:
				line = append(line, "NULL"...)
			case int8, int16, int32, int64, uint8, uint16, uint32, uint64, int:
				line = fmt.Append(line, v)
			case float32:
				line = strconv.AppendFloat(line, float64(v), 'g', -1, 64)
			case float64:
				line = strconv.AppendFloat(line, v, 'g', -1, 64)
			case string:
				line = append(line, v...)
			case time.Time:
				line = v.AppendFormat(line, time.RFC3339)
			default:
				line = fmt.Append(line, v)
			}
		}
		line = append(line, '\n')
		w.Write(line)
	}
	return rows.Err()
}
