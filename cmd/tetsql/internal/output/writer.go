package output

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Writer formats one result set. Call Header once, then Row for each row,
// then Close. Writers are not safe for concurrent use.
//
// Row does not retain vals or anything they reference after it returns, so
// the caller may reuse its scan buffers. Values are those database/sql
// produces when scanning into *any: nil, int64, float64, bool, string,
// []byte and time.Time; other integer and float kinds are accepted, and
// anything else is printed with fmt.
//
// After the first error every later call returns that error. Close flushes
// buffered output but does not close the underlying io.Writer.
type Writer interface {
	Header(cols []Column) error
	Row(vals []any) error
	Close() error
}

// Column describes one result column.
type Column struct {
	// Name is the column name as the query reported it.
	Name string
	// Type is the declared type (sql.ColumnType.DatabaseTypeName), possibly
	// empty. Box, table and markdown right-align columns whose declared type
	// has numeric affinity (INT, REAL, FLOA, DOUB, NUM, DEC).
	Type string
}

// defaultWindow is the number of rows box, table and markdown buffer to
// compute column widths. Later rows reuse those widths, and a wider value
// extends its own cell instead of being cut.
const defaultWindow = 1000

// Options tune a Writer. The zero value writes no CSV, TSV or column header,
// prints NULL as an empty string and does not truncate cells.
type Options struct {
	// Header writes a header row of column names in csv and tsv, and the
	// header and its dashes in column mode. Box, table, markdown, line and
	// json always name their columns.
	Header bool
	// Null is the text printed for NULL in every mode except json and
	// jsonl, which print null.
	Null string
	// MaxWidth, if positive, cuts box, table and markdown cells (and
	// headers) wider than MaxWidth terminal columns, ending them with "…".
	// Numbers are never cut.
	MaxWidth int
	// Widths are the column widths of box, table, markdown and column
	// output, as sqlite3's .width sets them: Widths[i] for column i, in
	// terminal columns; 0 (or no entry) sizes the column to its cells. A
	// column of width w is at least |w| wide, and its text cells and
	// header wider than |w| are cut to |w| columns ending in "…" (in
	// place of MaxWidth); numbers are never cut, the column widens for
	// them. A negative width right-aligns the column's cells (in column
	// mode its header too).
	Widths []int
	// FitWidth, if positive, fits box, table and column lines into
	// FitWidth terminal columns: text columns are narrowed (cells cut with
	// "…"), and when that is not enough the columns that do not fit are
	// left out, one "…" column standing in for them (see HiddenColumns).
	// A text cell of a row after the first window that is wider than its
	// column is cut to it with "…" (a number widens its row).
	FitWidth int
	// window replaces defaultWindow when positive; only tests set it (to
	// see several windows in a few rows).
	window int
}

// errNoHeader is returned by Row when Header has not been called.
var errNoHeader = errors.New("output: Row called before Header")

// New returns a Writer that formats rows in the given mode onto w.
func New(mode Mode, w io.Writer, opts Options) (Writer, error) {
	if opts.MaxWidth < 0 || opts.FitWidth < 0 {
		return nil, fmt.Errorf("output: negative MaxWidth (%d) or FitWidth (%d)", opts.MaxWidth, opts.FitWidth)
	}
	if opts.window <= 0 {
		opts.window = defaultWindow
	}
	switch mode {
	case CSV:
		return newCSV(w, opts), nil
	case TSV:
		return &tsvWriter{base: newBase(w, opts), sep: '\t'}, nil
	case List:
		return &tsvWriter{base: newBase(w, opts), sep: '|', plain: true}, nil
	case JSON, JSONL:
		return &jsonWriter{base: newBase(w, opts), lines: mode == JSONL}, nil
	case Line:
		return &lineWriter{base: newBase(w, opts)}, nil
	case Box, Table, Markdown, ColumnMode:
		return newGrid(mode, w, opts), nil
	case Parquet:
		return nil, errors.New("output: parquet is not a text mode (written by tetsql.WriteParquet)")
	case Arrow:
		return nil, errors.New("output: arrow is not a text mode (written by tetsql.WriteArrow)")
	}
	return nil, fmt.Errorf("output: unknown mode %v", mode)
}

// base holds what every buffered writer shares: the bufio.Writer, the
// sticky error and the header.
type base struct {
	bw      *bufio.Writer
	opts    Options
	cols    []Column
	started bool // Header was called
	err     error
	buf     []byte // scratch space for formatting one value or row
}

func newBase(w io.Writer, opts Options) base {
	return base{bw: bufio.NewWriterSize(w, 64<<10), opts: opts}
}

// header records cols; it fails if the header was already set.
func (b *base) header(cols []Column) error {
	if b.err != nil {
		return b.err
	}
	if b.started {
		b.err = errors.New("output: Header called twice")
		return b.err
	}
	b.started = true
	b.cols = append([]Column(nil), cols...)
	return nil
}

// check validates a row against the header.
func (b *base) check(vals []any) error {
	if b.err != nil {
		return b.err
	}
	if !b.started {
		b.err = errNoHeader
		return b.err
	}
	if len(vals) != len(b.cols) {
		b.err = fmt.Errorf("output: row has %d values, header has %d columns", len(vals), len(b.cols))
	}
	return b.err
}

// write writes p unless an error is pending, and records any new error.
func (b *base) write(p []byte) {
	if b.err == nil {
		_, b.err = b.bw.Write(p)
	}
}

// writeString is write for a string.
func (b *base) writeString(s string) {
	if b.err == nil {
		_, b.err = b.bw.WriteString(s)
	}
}

// close flushes the buffer and returns the first error.
func (b *base) close() error {
	if b.err == nil {
		b.err = b.bw.Flush()
	}
	return b.err
}

// numericType reports whether a declared type names a number: it contains
// INT, REAL, FLOA, DOUB, NUM or DEC (SQLite's integer and real affinity
// rules plus NUMERIC and DECIMAL, but not DATE or BOOLEAN).
func numericType(decl string) bool {
	t := strings.ToUpper(decl)
	for _, k := range [...]string{"INT", "REAL", "FLOA", "DOUB", "NUM", "DEC"} {
		if strings.Contains(t, k) {
			return true
		}
	}
	return false
}
