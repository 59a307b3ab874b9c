package tetsql

import (
	"context"
	"fmt"
	"io"
	"unsafe"

	"github.com/parquet-go/parquet-go"

	"github.com/tetsql/tetsql/internal/colbatch"
	"github.com/tetsql/tetsql/vtab"
)

// fastBatch is the number of rows taken from a cells scan at a time.
const fastBatch = 8192

// WriteParquet runs e's query and writes its rows as one Parquet file
// to w, like the function WriteParquet, and returns how many it wrote.
// On the fast path (see Export) the file is written column by column; the
// file is the same either way.
func (e *Export) WriteParquet(ctx context.Context, w io.Writer, opts ParquetOptions) (n int64, err error) {
	codec, groupRows, err := opts.settings()
	if err != nil {
		return 0, err
	}
	cols := newParquetColumns(e.names, e.decls)
	var f *parquetFile
	progress := opts.progress()
	rows, took, err := e.run(ctx, func(es *vtab.ExportScan) (bool, error) {
		vecs := e.scanVecs(es, cols)
		if vecs == nil {
			return false, nil
		}
		f = newParquetFile(w, cols, allColumns(len(cols)), codec, groupRows)
		p := newPipeWriter(f)
		var inGroup int64 // rows sent for the current row group
		var err error
		n, err = e.pump(es, vecs, func() int { return int(min(fastBatch, groupRows-inGroup)) }, p.failed.Load,
			func(m int, before int64) error {
				inGroup = (inGroup + int64(m)) % groupRows
				return p.write(vecs, m, before)
			}, progress)
		if perr := p.finish(); err == nil {
			err = perr
		}
		return true, err
	})

	switch {
	case took && err != nil:
		return n, err
	case took:
		return n, f.close()
	case err != nil:
		return 0, err
	}
	defer rows.Close()
	return WriteParquet(w, rows, opts)
}

// holds reports whether the column's Parquet type takes values of kind
// k as the slow path would convert them.
func (c *parquetColumn) holds(k colbatch.Kind) bool {
	switch c.kind {
	case pqInt64, pqInt8, pqInt16, pqInt32, pqUint8, pqUint16, pqUint32:
		return k == colbatch.Int64
	case pqUint64:
		return k == colbatch.Uint64
	case pqFloat:
		return k == colbatch.Float32
	case pqDouble:
		return k == colbatch.Float64
	case pqString:
		return k == colbatch.Text
	}
	return false
}

// vecValues converts v into dst (len = rows) for leaf column j: one
// loop per kind, so that the per-value work is the conversion alone.
func (c *parquetColumn) vecValues(v *colbatch.Vec, dst []parquet.Value, j int) error {
	null := parquet.NullValue().Level(0, 0, j)
	switch c.kind {
	case pqInt64, pqUint64:
		for i, x := range v.I64[:len(dst)] {
			dst[i] = parquet.Int64Value(x).Level(0, 1, j)
		}
	case pqInt8, pqInt16, pqInt32, pqUint8, pqUint16, pqUint32:
		lo, hi := c.kind.intRange()
		for i, x := range v.I64[:len(dst)] {
			if (x < lo || x > hi) && !v.Null[i] {
				return fmt.Errorf("%w: INTEGER value %d in a column of type %s", ErrParquetType, x, c.kind)
			}
			dst[i] = parquet.Int32Value(int32(uint32(x))).Level(0, 1, j)
		}
	case pqFloat:
		for i, x := range v.F32[:len(dst)] {
			dst[i] = parquet.FloatValue(x).Level(0, 1, j)
		}
	case pqDouble:
		for i, x := range v.F64[:len(dst)] {
			dst[i] = parquet.DoubleValue(x).Level(0, 1, j)
		}
	case pqString:
		for i, s := range v.Str[:len(dst)] {
			// The column buffer copies the bytes; the label string is
			// not changed.
			dst[i] = parquet.ByteArrayValue(unsafe.Slice(unsafe.StringData(s), len(s))).Level(0, 1, j)
		}
	default:
		return fmt.Errorf("%w: column of type %s", ErrParquetType, c.kind)
	}
	for i, isNull := range v.Null[:len(dst)] {
		if isNull {
			dst[i] = null
		}
	}
	return nil
}
