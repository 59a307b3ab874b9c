package tetsql

import (
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// ArrowOptions tune WriteArrow and WriteArrowFile. The zero value writes
// uncompressed record batches of DefaultArrowBatchRows rows.
type ArrowOptions struct {
	// BatchRows is the most rows in one record batch (0 means
	// DefaultArrowBatchRows). A batch is built in memory before it is
	// written, so this bounds the memory an export needs whatever the
	// size of the result. A batch also ends early once its TEXT and
	// BLOB values reach ArrowBatchBytes.
	BatchRows int
	// Progress, if set, is called as rows are written with how many were
	// written since its previous call (for a progress line; it must be
	// cheap: it is called for every row).
	Progress func(rows int64)
}

// DefaultArrowBatchRows is the record batch size WriteArrow uses when
// ArrowOptions.BatchRows is 0.
const DefaultArrowBatchRows = 1 << 16

// ArrowBatchBytes is the size of the TEXT and BLOB values in one record
// batch after which the batch ends, whatever its row count: it bounds
// the memory of results with large values and keeps every batch far from
// the 2 GiB limit of Arrow's 32-bit string offsets.
const ArrowBatchBytes = 64 << 20

// ErrArrowType is wrapped by the error of WriteArrow when a value does
// not fit the Arrow type of its column (say, a REAL in a column whose
// type was inferred as int64 from its first value, or 300 in an INT8
// column).
var ErrArrowType = errors.New("value does not fit the column's Arrow type")

// WriteArrow writes the rows to w as an Arrow IPC stream (the format of
// pyarrow.ipc.open_stream, polars.read_ipc_stream and DuckDB's
// arrow_scan; files usually named .arrows) and returns how many rows it
// wrote. It reads rows to the end but does not close them.
//
// Column types come from the declared SQL types as in WriteParquet: the
// integer dtype names INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32
// and UINT64 → int8 … uint64; exactly FLOAT32 or FLOAT16 (a tetsql
// f32/f16 value column) → float32; other REAL/FLOA/DOUB types (FLOAT
// among them: SQLite's double) → float64; other INT
// types → int64; CHAR/CLOB/TEXT types → utf8; BLOB → binary. Columns
// with no declared type (expressions) or a NUMERIC one take their type
// from their first non-NULL value exactly as in WriteParquet (INTEGER →
// int64, REAL → float64, TEXT → utf8, BLOB → binary), a column NULL in
// the rows read to find it being utf8. Every field is nullable; NaN
// cells arrive as NULL. A value that does not fit its column is an
// error wrapping ErrArrowType that names the column and row: no value
// is ever silently changed (a REAL of 2^63 or more in a UINT64 column,
// how SQLite hands over a u64 above the int64 range, rounded, is
// refused; Export.WriteArrow reads such values exactly). Duplicate column
// names get a suffix (a, a_2), as many readers need unique names.
//
// Rows are written record batch by record batch (see ArrowOptions);
// only rows read while a column type is still unknown are buffered (at
// most ParquetInferRows).
//
// On error the stream is cut off inside a message, so that a reader
// fails instead of taking the rows written so far for the whole
// result; when writing to a file, write to a temporary name and rename
// it on success.
func WriteArrow(w io.Writer, rows *sql.Rows, opts ArrowOptions) (int64, error) {
	return writeArrow(w, rows, opts, false)
}

// WriteArrowFile is WriteArrow writing the Arrow IPC file format (random
// access, with a footer; what pyarrow.feather, pyarrow.ipc.open_file,
// polars.read_ipc and DuckDB read from .arrow and .feather files). w
// need not seek. On error what was written to w is not a valid Arrow
// file.
func WriteArrowFile(w io.Writer, rows *sql.Rows, opts ArrowOptions) (int64, error) {
	return writeArrow(w, rows, opts, true)
}

// recordWriter is an IPC stream or file writer.
type recordWriter interface {
	Write(arrow.RecordBatch) error
	Close() error
}

// writeArrow writes the rows as an IPC stream, or an IPC file if file.
func writeArrow(w io.Writer, rows *sql.Rows, opts ArrowOptions, file bool) (n int64, err error) {
	cts, err := rows.ColumnTypes()
	if err != nil {
		return 0, fmt.Errorf("arrow: %w", err)
	}
	names, decls := make([]string, len(cts)), make([]string, len(cts))
	for i, ct := range cts {
		names[i], decls[i] = ct.Name(), ct.DatabaseTypeName()
	}
	cols := newParquetColumns(names, decls)
	out := newArrowOut(w, opts, file)
	progress := opts.progress()
	err = scanResultRows(rows, cols, int64(out.batchRows), "arrow", func() error {
		return out.start(cols)
	}, func(vals []any) error {
		if err := out.b.append(vals, n+1); err != nil {
			return err
		}
		n++
		progress(1)
		return out.flushIfFull()
	})
	return n, out.finish(err)
}

// progress is o.Progress, or a function that does nothing.
func (o ArrowOptions) progress() func(int64) {
	if o.Progress != nil {
		return o.Progress
	}
	return func(int64) {}
}

// arrowOut is an Arrow IPC stream or file being written.
type arrowOut struct {
	cw        *countWriter
	file      bool
	batchRows int
	b         *arrowBatch  // nil until start
	rw        recordWriter // nil until start
}

// newArrowOut prepares an IPC stream (or file) on w; start begins it.
func newArrowOut(w io.Writer, opts ArrowOptions, file bool) *arrowOut {
	batchRows := opts.BatchRows
	if batchRows <= 0 {
		batchRows = DefaultArrowBatchRows
	}
	return &arrowOut{cw: &countWriter{w: w}, file: file, batchRows: batchRows}
}

// start begins the output with the columns cols, whose kinds must all be
// known. Nothing is written before the first batch (or the end).
func (o *arrowOut) start(cols []parquetColumn) error {
	o.b = newArrowBatch(cols)
	if !o.file {
		o.rw = ipc.NewWriter(o.cw, ipc.WithSchema(o.b.schema))
		return nil
	}
	fw, err := ipc.NewFileWriter(o.cw, ipc.WithSchema(o.b.schema))
	if err != nil {
		o.b.release()
		o.b = nil
		return fmt.Errorf("arrow: %w", err)
	}
	o.rw = fw
	return nil
}

// flushIfFull writes the batch being built once it holds BatchRows rows
// or ArrowBatchBytes of TEXT and BLOB values.
func (o *arrowOut) flushIfFull() error {
	if o.b.rows >= o.batchRows || o.b.varBytes >= ArrowBatchBytes {
		return o.b.flush(o.rw)
	}
	return nil
}

// finish ends the output after the rows ended with err: on success it
// writes the last batch and the end of the stream (or the file's
// footer); on error it cuts a stream off (see cutStream). It frees the
// batch's memory and returns the first error.
func (o *arrowOut) finish(err error) error {
	if o.b != nil {
		defer o.b.release()
		if err == nil {
			err = o.b.flush(o.rw)
		}
		if err == nil {
			if cerr := o.rw.Close(); cerr != nil {
				err = fmt.Errorf("arrow: %w", cerr)
			}
		}
	}
	if err != nil && o.cw.n > 0 && !o.file {
		cutStream(o.cw)
	}
	return err
}

// CutArrowStream writes to w, which has received part of an Arrow IPC
// stream, bytes that make every reader report the stream as truncated:
// for a program that must end mid-stream (a signal) on a pipe it cannot
// remove. WriteArrow does the same itself when its query fails.
func CutArrowStream(w io.Writer) { cutStream(w) }

// cutStream ends a failed stream inside a message: a continuation marker
// and a metadata length with no metadata after it, which every IPC
// reader reports as a truncated stream (a stream that simply stopped
// after a batch would read as a valid, shorter result).
func cutStream(w io.Writer) {
	var b [8]byte
	binary.LittleEndian.PutUint32(b[:4], 0xFFFFFFFF)
	binary.LittleEndian.PutUint32(b[4:], 1<<10)
	w.Write(b[:]) // best effort: the export has failed already
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

// Write writes p to the underlying writer and counts it.
func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
