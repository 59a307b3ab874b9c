package tetsql

import (
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
)

// parquetFile writes chosen columns of result rows to one Parquet file,
// batch by batch and row group by row group.
type parquetFile struct {
	pw        *parquet.Writer
	cols      []parquetColumn // every result column
	idx       []int           // the result columns this file holds, in order
	batch     []parquet.Row   // rows reused batch after batch
	inGroup   int64
	groupRows int64
	// groupBytes counts the TEXT and BLOB bytes of the row group: a group
	// ends at ParquetGroupBytes too, so that large values do not make a
	// group of a million rows hold gigabytes.
	groupBytes int64
	batchBytes int64 // the same for the rows batched (they hold their values)
}

// newParquetFile starts a file on w holding the columns idx of cols,
// whose kinds must all be known.
func newParquetFile(w io.Writer, cols []parquetColumn, idx []int, codec compress.Codec, groupRows int64) *parquetFile {
	sub := make([]parquetColumn, len(idx))
	for j, i := range idx {
		sub[j] = cols[i]
	}
	opts := []parquet.WriterOption{parquetSchema(sub), parquet.Compression(codec), parquet.DataPageVersion(1),
		parquet.CreatedBy("tetsql", "", "")}
	for _, c := range sub {
		if c.kind == pqBytes {
			// No min/max for BLOBs: meaningless, and parquet-go keeps
			// every page's bounds whole until the file ends (1 GB of
			// 10 MB BLOBs held 2 GB).
			opts = append(opts, parquet.SkipPageBounds(c.name))
		}
	}
	pw := parquet.NewWriter(w, opts...)
	return &parquetFile{pw: pw, cols: cols, idx: idx, batch: make([]parquet.Row, 0, parquetBatch), groupRows: groupRows}
}

// write adds one result row; rowNum (1-based) names it in errors.
func (f *parquetFile) write(vals []any, rowNum int64) error {
	if len(f.batch) < cap(f.batch) && f.batch[:len(f.batch)+1][len(f.batch)] == nil {
		f.batch = append(f.batch, make(parquet.Row, len(f.idx)))
	} else {
		f.batch = f.batch[:len(f.batch)+1]
	}
	row := f.batch[len(f.batch)-1]
	for j, i := range f.idx {
		c := &f.cols[i]
		v, err := c.value(vals[i])
		if err != nil {
			return fmt.Errorf("parquet: column %q, row %d: %w", c.name, rowNum, err)
		}
		row[j] = v.Level(0, c.level(vals[i]), j)
		n := varSize(vals[i])
		f.groupBytes += n
		f.batchBytes += n
	}
	f.inGroup++
	full := f.inGroup == f.groupRows || f.groupBytes >= ParquetGroupBytes
	if len(f.batch) == parquetBatch || f.batchBytes >= parquetBatchBytes || full {
		if err := f.flushBatch(); err != nil {
			return err
		}
	}
	if full {
		f.inGroup, f.groupBytes = 0, 0
		if err := f.pw.Flush(); err != nil {
			return fmt.Errorf("parquet: %w", err)
		}
	}
	return nil
}

// flushBatch hands the batched rows to the Parquet writer.
func (f *parquetFile) flushBatch() error {
	if len(f.batch) == 0 {
		return nil
	}
	if _, err := f.pw.WriteRows(f.batch); err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	for _, row := range f.batch {
		clear(row) // the rows are reused: let the values they held go
	}
	f.batch, f.batchBytes = f.batch[:0], 0
	return nil
}

// close writes the last rows and the footer.
func (f *parquetFile) close() error {
	if err := f.flushBatch(); err != nil {
		return err
	}
	if err := f.pw.Close(); err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	return nil
}

// parquetBatchBytes is the most TEXT and BLOB bytes of the rows batched
// before they go to the Parquet writer (at most parquetBatch rows).
const parquetBatchBytes = 4 << 20

// ParquetGroupBytes is the most TEXT and BLOB bytes one row group holds
// before it is written out, whatever its number of rows.
const ParquetGroupBytes = 64 << 20

// varSize is the size of a TEXT or BLOB value (0 for others).
func varSize(v any) int64 {
	switch x := v.(type) {
	case string:
		return int64(len(x))
	case []byte:
		return int64(len(x))
	}
	return 0
}
