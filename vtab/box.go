package vtab

import (
	"math"
	"unsafe"

	"github.com/tetsql/tetsql/array"
)

// The vtab API returns each column value as an interface, and converting
// a float64, an int64 or a string to an interface allocates. A cursor
// instead keeps the value in a slot of its own and returns an interface
// whose data pointer is that slot: no allocation per row.
//
// This is safe because the driver converts the interface to a SQLite
// value inside the Column callback and keeps nothing (the callback's
// result goes to sqlite3_result_*), and the slot is rewritten only by the
// next Column call of the same cursor, on the same goroutine. Strings
// point at the label itself, which never changes.

// eface is the layout of an empty interface.
type eface struct {
	typ  unsafe.Pointer
	data unsafe.Pointer
}

var (
	float64Type = typeOf(float64(0))
	int64Type   = typeOf(int64(0))
	stringType  = typeOf("")
)

func typeOf(v any) unsafe.Pointer { return (*eface)(unsafe.Pointer(&v)).typ }

func boxAt(typ, p unsafe.Pointer) any {
	var v any
	e := (*eface)(unsafe.Pointer(&v))
	e.typ, e.data = typ, p
	return v
}

// slots holds a cursor's boxed column values.
type slots struct {
	f [1]float64
	i [1]int64
}

// float boxes f without allocating; valid until the next call.
func (s *slots) float(f float64) any {
	s.f[0] = f
	return boxAt(float64Type, unsafe.Pointer(&s.f[0]))
}

// int boxes n without allocating; valid until the next call.
func (s *slots) int(n int64) any {
	s.i[0] = n
	return boxAt(int64Type, unsafe.Pointer(&s.i[0]))
}

// str boxes the string at p (which must not change) without allocating.
func str(p *string) any { return boxAt(stringType, unsafe.Pointer(p)) }

// widen converts element i of a chunk to the SQLite value of its
// dtype, boxed in s: REAL for floats (NaN as NULL), INTEGER for integers,
// and REAL for a u64 above 2^63-1.
func (s *slots) widen(dt array.DType, data []byte, i int) any {
	switch dt {
	case array.F32, array.F64, array.F16:
		f := dt.Float64(data, i)
		if f != f {
			return nil
		}
		return s.float(f)
	case array.U64:
		u := dt.Uint64(data, i)
		if u > math.MaxInt64 {
			return s.float(float64(u))
		}
		return s.int(int64(u))
	}
	return s.int(dt.Int64(data, i))
}
