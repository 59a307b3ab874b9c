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
}

// newParquetFile starts a file on w holding the columns idx of cols,
// whose kinds must all be known.
func newParquetFile(w io.Writer, cols []parquetColumn, idx []int, codec compress.Codec, groupRows int64) *parquetFile {
	sub := make([]parquetColumn, len(idx))
	for j, i := range idx {
		sub[j] = cols[i]
	}
	pw := parquet.NewWriter(w, parquetSchema(sub), parquet.Compression(codec),
		parquet.DataPageVersion(1), parquet.CreatedBy("tetsql", "", ""))
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
	}
	f.inGroup++
	if len(f.batch) == parquetBatch || f.inGroup == f.groupRows {
		if err := f.flushBatch(); err != nil {
			return err
		}
	}
	if f.inGroup == f.groupRows {
		f.inGroup = 0
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
	f.batch = f.batch[:0]
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
