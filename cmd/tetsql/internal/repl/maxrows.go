package repl

import (
	"context"
	"fmt"
	"strconv"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

// DefaultMaxRows is how many rows a grid (box, table, column) shows on a
// terminal before it holds the rest back, as DuckDB's shell does; .maxrows
// changes it, 0 shows every row. Files, pipes and the other modes get
// every row whatever it is.
const DefaultMaxRows = 40

// limitWriter passes the first limit rows to the Writer and counts the
// rest without writing them.
type limitWriter struct {
	output.Writer
	limit, n int64
}

// Row implements output.Writer.
func (l *limitWriter) Row(vals []any) error {
	l.n++
	if l.n > l.limit {
		return nil
	}
	return l.Writer.Row(vals)
}

// heldBack is the number of rows l did not write.
func (l *limitWriter) heldBack() int64 { return max(l.n-l.limit, 0) }

// limitRows wraps w when results go to a terminal in a grid mode and
// .maxrows is on; otherwise it returns nil.
func (s *Shell) limitRows(k *sink, mode output.Mode) *limitWriter {
	if k != nil || !s.opt.StdoutTerminal || s.maxRows <= 0 {
		return nil
	}
	switch mode {
	case output.Box, output.Table, output.ColumnMode:
		return &limitWriter{limit: s.maxRows}
	}
	return nil
}

// dotMaxRows shows or sets how many rows a grid shows on a terminal.
func (s *Shell) dotMaxRows(_ context.Context, args []string) error {
	if len(args) == 0 {
		_, err := fmt.Fprintf(s.opt.Stdout, "maxrows: %d\n", s.maxRows)
		return err
	}
	n, err := strconv.ParseInt(args[0], 10, 64)
	if err != nil || n < 0 {
		return fmt.Errorf("usage: .maxrows N (rows a grid shows on a terminal; 0 = all), got %q", args[0])
	}
	s.maxRows = n
	return nil
}
