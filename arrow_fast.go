package tetsql

import (
	"context"
	"fmt"
	"io"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/tetsql/tetsql/internal/colbatch"
	"github.com/tetsql/tetsql/vtab"
)

// WriteArrow runs e's query and writes its rows as an Arrow IPC stream to
// w, like the function WriteArrow, and returns how many it wrote. On the
// fast path (see Export) batches are built column by column from the
// cells scan; the stream holds the same values either way.
func (e *Export) WriteArrow(ctx context.Context, w io.Writer, opts ArrowOptions) (int64, error) {
	return e.writeArrow(ctx, w, opts, false)
}

// WriteArrowFile is WriteArrow writing the Arrow IPC file format, like
// the function WriteArrowFile.
func (e *Export) WriteArrowFile(ctx context.Context, w io.Writer, opts ArrowOptions) (int64, error) {
	return e.writeArrow(ctx, w, opts, true)
}

// writeArrow writes e's rows as an IPC stream, or an IPC file if file.
func (e *Export) writeArrow(ctx context.Context, w io.Writer, opts ArrowOptions, file bool) (n int64, err error) {
	cols := newParquetColumns(e.names, e.decls)
	out := newArrowOut(w, opts, file)
	progress := opts.progress()
	rows, took, err := e.run(ctx, func(es *vtab.ExportScan) (bool, error) {
		vecs := e.scanVecs(es, cols)
		if vecs == nil {
			return false, nil
		}
		if err := out.start(cols); err != nil {
			return true, err
		}
		var err error
		n, err = e.pump(es, vecs, func() int { return min(fastBatch, out.batchRows-out.b.rows) }, nil,
			func(m int, before int64) error {
				if err := out.b.appendVecs(vecs, m, before); err != nil {
					return err
				}
				return out.flushIfFull()
			}, progress)
		return true, err
	})

	switch {
	case took:
		return n, out.finish(err)
	case err != nil:
		return 0, err
	}
	defer rows.Close()
	return writeArrow(w, rows, opts, file)
}

// appendVecs adds m rows held column by column (every column, in order);
// before is the number of rows written so far, for messages. The values
// are those the ordinary path would append, range checks included.
func (b *arrowBatch) appendVecs(vecs []colbatch.Vec, m int, before int64) error {
	for j := range vecs {
		v := &vecs[j]
		valid := b.valid[:0]
		for _, isNull := range v.Null[:m] {
			valid = append(valid, !isNull)
		}
		b.valid = valid
		if i, err := b.appendVec(b.rb.Field(j), v, m, valid); err != nil {
			return fmt.Errorf("arrow: column %q, row %d: %w", b.names[j], before+int64(i)+1, err)
		}
	}
	b.rows += m
	return nil
}

// appendVec appends v's first m values to fb; on error it returns the
// row (0-based in v) whose value does not fit.
func (b *arrowBatch) appendVec(fb array.Builder, v *colbatch.Vec, m int, valid []bool) (int, error) {
	switch fb := fb.(type) {
	case *array.Int64Builder:
		fb.AppendValues(v.I64[:m], valid)
	case *array.Uint64Builder:
		fb.Reserve(m)
		for i, x := range v.I64[:m] {
			if valid[i] {
				fb.UnsafeAppend(uint64(x)) // the bits of a u64
			} else {
				fb.UnsafeAppendBoolToBitmap(false)
			}
		}
	case *array.Int8Builder:
		return appendNarrow(fb, v.I64[:m], valid)
	case *array.Int16Builder:
		return appendNarrow(fb, v.I64[:m], valid)
	case *array.Int32Builder:
		return appendNarrow(fb, v.I64[:m], valid)
	case *array.Uint8Builder:
		return appendNarrow(fb, v.I64[:m], valid)
	case *array.Uint16Builder:
		return appendNarrow(fb, v.I64[:m], valid)
	case *array.Uint32Builder:
		return appendNarrow(fb, v.I64[:m], valid)
	case *array.Float32Builder:
		fb.AppendValues(v.F32[:m], valid)
	case *array.Float64Builder:
		fb.AppendValues(v.F64[:m], valid)
	case *array.StringBuilder:
		for _, s := range v.Str[:m] {
			b.varBytes += len(s)
		}
		fb.AppendValues(v.Str[:m], valid)
	default:
		return 0, fmt.Errorf("%w: a scan's %s values in a column of type %s", ErrArrowType, v.Kind, fb.Type())
	}
	return 0, nil
}

// narrowBuilder is an Arrow builder of an integer type narrower than 64
// bits.
type narrowBuilder[T int8 | int16 | int32 | uint8 | uint16 | uint32] interface {
	Reserve(n int)
	UnsafeAppend(v T)
	UnsafeAppendBoolToBitmap(valid bool)
	Type() arrow.DataType
}

// appendNarrow appends integers to a narrow builder after checking that
// each fits; it returns the row of the first that does not.
func appendNarrow[T int8 | int16 | int32 | uint8 | uint16 | uint32](fb narrowBuilder[T], xs []int64, valid []bool) (int, error) {
	lo, hi := intLimits[T]()
	for i, x := range xs {
		if valid[i] && (x < lo || x > hi) {
			return i, fmt.Errorf("%w: INTEGER value %d in a column of type %s (CAST the expression to one type)", ErrArrowType, x, fb.Type())
		}
	}
	fb.Reserve(len(xs))
	for i, x := range xs {
		if valid[i] {
			fb.UnsafeAppend(T(x))
		} else {
			fb.UnsafeAppendBoolToBitmap(false)
		}
	}
	return 0, nil
}

// intLimits is the range of the integer type T, from its size and sign.
func intLimits[T int8 | int16 | int32 | uint8 | uint16 | uint32]() (lo, hi int64) {
	var z T
	bits := 8 * int(unsafe.Sizeof(z))
	if z-1 < 0 { // signed
		return -1 << (bits - 1), 1<<(bits-1) - 1
	}
	return 0, 1<<bits - 1
}
