// Package colbatch holds rows column by column: the form in which a cells
// scan hands its rows to an exporter (Parquet, Arrow) without passing
// them through SQLite and database/sql one by one.
//
// It imports nothing but the standard library, so that the scan side
// (vtab) and the writers (the root package) can share it.
package colbatch

// Kind is the Go type a column's values are held in.
type Kind uint8

const (
	Int64   Kind = iota // I64
	Uint64              // I64, holding the bits of a uint64
	Float64             // F64
	Float32             // F32
	Text                // Str
)

// String names the kind for messages.
func (k Kind) String() string {
	switch k {
	case Int64:
		return "int64"
	case Uint64:
		return "uint64"
	case Float64:
		return "float64"
	case Float32:
		return "float32"
	case Text:
		return "text"
	}
	return "unknown"
}

// Vec is one column of a batch. Null has one entry per row (true: NULL);
// the slice of the column's kind has one entry per row too, zero where
// the row is NULL. The other slices stay empty.
type Vec struct {
	Kind Kind
	Null []bool
	I64  []int64
	F64  []float64
	F32  []float32
	Str  []string
}

// Len is the number of rows in v.
func (v *Vec) Len() int { return len(v.Null) }

// Reset empties v, keeping its memory and kind.
func (v *Vec) Reset() {
	v.Null, v.I64, v.F64, v.F32, v.Str = v.Null[:0], v.I64[:0], v.F64[:0], v.F32[:0], v.Str[:0]
}

// Truncate cuts v back to its first n rows (a row left half made).
func (v *Vec) Truncate(n int) {
	if n >= len(v.Null) {
		return
	}
	v.Null = v.Null[:n]
	switch v.Kind {
	case Int64, Uint64:
		v.I64 = v.I64[:n]
	case Float64:
		v.F64 = v.F64[:n]
	case Float32:
		v.F32 = v.F32[:n]
	case Text:
		v.Str = v.Str[:n]
	}
}

// AppendInt64 adds an Int64 or Uint64 row.
func (v *Vec) AppendInt64(x int64) {
	v.Null = append(v.Null, false)
	v.I64 = append(v.I64, x)
}

// AppendFloat64 adds a Float64 row.
func (v *Vec) AppendFloat64(x float64) {
	v.Null = append(v.Null, false)
	v.F64 = append(v.F64, x)
}

// AppendFloat32 adds a Float32 row.
func (v *Vec) AppendFloat32(x float32) {
	v.Null = append(v.Null, false)
	v.F32 = append(v.F32, x)
}

// AppendText adds a Text row.
func (v *Vec) AppendText(s string) {
	v.Null = append(v.Null, false)
	v.Str = append(v.Str, s)
}

// AppendNull adds a NULL row (a zero value in the kind's slice).
func (v *Vec) AppendNull() {
	v.Null = append(v.Null, true)
	switch v.Kind {
	case Int64, Uint64:
		v.I64 = append(v.I64, 0)
	case Float64:
		v.F64 = append(v.F64, 0)
	case Float32:
		v.F32 = append(v.F32, 0)
	case Text:
		v.Str = append(v.Str, "")
	}
}
