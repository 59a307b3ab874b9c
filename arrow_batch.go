package tetsql

import (
	"fmt"
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// arrowBatch builds one record batch of result rows at a time.
type arrowBatch struct {
	schema   *arrow.Schema
	rb       *array.RecordBuilder
	names    []string
	apps     []func(v any) (ok bool) // append a non-NULL value, false if it does not fit
	nulls    []func()                // append a NULL
	rows     int                     // rows in the batch being built
	varBytes int                     // bytes of TEXT and BLOB values in it
	valid    []bool                  // scratch of appendVecs
}

// newArrowBatch starts the batches of columns cols, whose kinds must all
// be known.
func newArrowBatch(cols []parquetColumn) *arrowBatch {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.name, Type: arrowType(c.kind), Nullable: true}
	}
	schema := arrow.NewSchema(fields, nil)
	b := &arrowBatch{schema: schema, rb: array.NewRecordBuilder(memory.DefaultAllocator, schema)}
	for i, c := range cols {
		fb := b.rb.Field(i)
		b.names = append(b.names, c.name)
		b.apps = append(b.apps, b.appender(fb))
		b.nulls = append(b.nulls, fb.AppendNull)
	}
	return b
}

// arrowType is the Arrow type of a column of kind k.
func arrowType(k parquetKind) arrow.DataType {
	switch k {
	case pqInt8:
		return arrow.PrimitiveTypes.Int8
	case pqInt16:
		return arrow.PrimitiveTypes.Int16
	case pqInt32:
		return arrow.PrimitiveTypes.Int32
	case pqInt64:
		return arrow.PrimitiveTypes.Int64
	case pqUint8:
		return arrow.PrimitiveTypes.Uint8
	case pqUint16:
		return arrow.PrimitiveTypes.Uint16
	case pqUint32:
		return arrow.PrimitiveTypes.Uint32
	case pqUint64:
		return arrow.PrimitiveTypes.Uint64
	case pqFloat:
		return arrow.PrimitiveTypes.Float32
	case pqDouble:
		return arrow.PrimitiveTypes.Float64
	case pqBytes:
		return arrow.BinaryTypes.Binary
	case pqBool:
		return arrow.FixedWidthTypes.Boolean
	}
	return arrow.BinaryTypes.String
}

// append adds one result row; rowNum (1-based) names it in errors.
func (b *arrowBatch) append(vals []any, rowNum int64) error {
	for i, v := range vals {
		if v == nil {
			b.nulls[i]()
			continue
		}
		if !b.apps[i](v) {
			hint := "CAST the expression to one type"
			if f, ok := v.(float64); ok && f >= 1<<63 && b.schema.Field(i).Type.ID() == arrow.UINT64 {
				hint = u64RealHint
			}
			return fmt.Errorf("arrow: column %q, row %d: %w: %s value %v in a column of type %s (%s)",
				b.names[i], rowNum, ErrArrowType, sqlClass(v), v, b.schema.Field(i).Type, hint)
		}
	}
	b.rows++
	return nil
}

// flush writes the rows built so far as one record batch, if any.
func (b *arrowBatch) flush(rw recordWriter) error {
	if b.rows == 0 {
		return nil
	}
	rec := b.rb.NewRecordBatch()
	defer rec.Release()
	b.rows, b.varBytes = 0, 0
	if err := rw.Write(rec); err != nil {
		return fmt.Errorf("arrow: %w", err)
	}
	return nil
}

// release frees the builders' memory.
func (b *arrowBatch) release() { b.rb.Release() }

// appender returns the function appending a non-NULL value to fb,
// refusing any change of value (a float32 column gets only values
// float32 holds exactly, an int8 column only integers in its range).
func (b *arrowBatch) appender(fb array.Builder) func(any) bool {
	switch fb := fb.(type) {
	case *array.Int8Builder:
		return intAppender(fb.Append, math.MinInt8, math.MaxInt8)
	case *array.Int16Builder:
		return intAppender(fb.Append, math.MinInt16, math.MaxInt16)
	case *array.Int32Builder:
		return intAppender(fb.Append, math.MinInt32, math.MaxInt32)
	case *array.Int64Builder:
		return intAppender(fb.Append, math.MinInt64, math.MaxInt64)
	case *array.Uint8Builder:
		return intAppender(fb.Append, 0, math.MaxUint8)
	case *array.Uint16Builder:
		return intAppender(fb.Append, 0, math.MaxUint16)
	case *array.Uint32Builder:
		return intAppender(fb.Append, 0, math.MaxUint32)
	case *array.Uint64Builder:
		return func(v any) bool {
			u, ok := asUint64(v)
			if ok {
				fb.Append(u)
			}
			return ok
		}
	case *array.Float32Builder:
		return func(v any) bool {
			f, ok := asFloat32(v)
			if ok {
				fb.Append(f)
			}
			return ok
		}
	case *array.Float64Builder:
		return func(v any) bool {
			f, ok := asFloat64(v)
			if ok {
				fb.Append(f)
			}
			return ok
		}
	case *array.StringBuilder:
		return func(v any) bool {
			switch x := v.(type) {
			case string:
				fb.Append(x)
				b.varBytes += len(x)
			case time.Time:
				fb.Append(x.Format(time.RFC3339Nano))
			default:
				return false
			}
			return true
		}
	case *array.BinaryBuilder:
		return func(v any) bool {
			switch x := v.(type) {
			case []byte:
				fb.Append(x)
				b.varBytes += len(x)
			case string:
				fb.AppendString(x)
				b.varBytes += len(x)
			default:
				return false
			}
			return true
		}
	case *array.BooleanBuilder:
		return func(v any) bool {
			x, ok := v.(bool)
			if ok {
				fb.Append(x)
			}
			return ok
		}
	}
	panic(fmt.Sprintf("arrow: no appender for %T", fb)) // arrowType makes none of these
}

// intAppender appends integers in [lo, hi] with app.
func intAppender[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32](app func(T), lo, hi int64) func(any) bool {
	return func(v any) bool {
		i, ok := asInt64(v)
		if !ok || i < lo || i > hi {
			return false
		}
		app(T(i))
		return true
	}
}

// asUint64 returns v as a uint64 when it is a non-negative integer. A
// REAL is refused, even one of 2^63 or more where SQLite puts u64 values
// an int64 cannot hold: it is rounded (u64RealHint).
func asUint64(v any) (uint64, bool) {
	i, ok := asInt64(v)
	return uint64(i), ok && i >= 0
}

// asFloat32 returns v as a float32 when that holds it exactly.
func asFloat32(v any) (float32, bool) {
	switch x := v.(type) {
	case float32:
		return x, true
	case float64:
		f := float32(x)
		return f, float64(f) == x || math.IsInf(x, 0)
	}
	i, ok := asInt64(v)
	return float32(i), ok && i >= -1<<24 && i <= 1<<24
}

// asFloat64 returns v as a float64 when that holds it exactly.
func asFloat64(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	}
	i, ok := asInt64(v)
	return float64(i), ok && i >= -1<<53 && i <= 1<<53
}
