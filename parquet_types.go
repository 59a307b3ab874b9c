package tetsql

import (
	"database/sql"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"
)

// parquetKind is the Parquet type of a column.
type parquetKind int

const (
	pqUnknown parquetKind = iota // not known yet: from the first non-NULL value
	pqInt64
	pqFloat
	pqDouble
	pqString
	pqBytes
	pqBool
	// Integer columns declared by width and sign (a tetsql integer value
	// column, see valueType in vtab): INT logical types, values range-checked.
	pqInt8
	pqInt16
	pqInt32
	pqUint8
	pqUint16
	pqUint32
	pqUint64
)

// narrowInts are the declared names of integer columns by width and
// sign; "INT64" is pqInt64 like every other INT type.
var narrowInts = map[string]parquetKind{
	"INT8": pqInt8, "INT16": pqInt16, "INT32": pqInt32,
	"UINT8": pqUint8, "UINT16": pqUint16, "UINT32": pqUint32, "UINT64": pqUint64,
}

// intRange is the range of values a narrow integer kind holds.
func (k parquetKind) intRange() (lo, hi int64) {
	switch k {
	case pqInt8:
		return math.MinInt8, math.MaxInt8
	case pqInt16:
		return math.MinInt16, math.MaxInt16
	case pqInt32:
		return math.MinInt32, math.MaxInt32
	case pqUint8:
		return 0, math.MaxUint8
	case pqUint16:
		return 0, math.MaxUint16
	case pqUint32:
		return 0, math.MaxUint32
	}
	return 0, math.MaxInt64 // pqUint64 below 2^63; above, REAL (value)
}

// parquetColumn is one result column and its Parquet type.
type parquetColumn struct {
	name string
	kind parquetKind
}

// newParquetColumns maps declared SQL types to Parquet types by SQLite's
// affinity rules and makes the column names unique.
func newParquetColumns(names, decls []string) []parquetColumn {
	cols := make([]parquetColumn, len(names))
	used := map[string]bool{}
	for i, n := range names {
		name := n
		for k := 2; used[name]; k++ {
			name = n + "_" + strconv.Itoa(k)
		}
		used[name] = true
		cols[i] = parquetColumn{name: name, kind: declaredKind(decls[i])}
	}
	return cols
}

// columnInfo returns the names and declared types of rows' columns.
func columnInfo(rows *sql.Rows) (names, decls []string, err error) {
	cts, err := rows.ColumnTypes()
	if err != nil {
		return nil, nil, fmt.Errorf("parquet: %w", err)
	}
	names, decls = make([]string, len(cts)), make([]string, len(cts))
	for i, ct := range cts {
		names[i], decls[i] = ct.Name(), ct.DatabaseTypeName()
	}
	return names, decls, nil
}

// declaredKind is the Parquet type of a declared SQL type; pqUnknown for
// none or a NUMERIC-affinity one, whose values may be of any class.
func declaredKind(t string) parquetKind {
	t = strings.ToUpper(strings.TrimSpace(t))
	if k, ok := narrowInts[t]; ok {
		return k
	}
	switch {
	case t == "FLOAT32", t == "FLOAT16":
		// A tetsql f32 or f16 value column (see valueType in vtab); a
		// plain FLOAT is SQLite's double, like REAL, below.
		return pqFloat
	case strings.Contains(t, "INT"):
		return pqInt64
	case strings.Contains(t, "CHAR"), strings.Contains(t, "CLOB"), strings.Contains(t, "TEXT"):
		return pqString
	case t == "BLOB":
		return pqBytes
	case strings.Contains(t, "REAL"), strings.Contains(t, "FLOA"), strings.Contains(t, "DOUB"):
		return pqDouble
	}
	return pqUnknown
}

// infer sets an unknown kind from v and reports whether the kind is known.
func (c *parquetColumn) infer(v any) bool {
	if c.kind != pqUnknown {
		return true
	}
	switch v.(type) {
	case nil:
		return false
	case int64, int32, int:
		c.kind = pqInt64
	case float64, float32:
		c.kind = pqDouble
	case []byte:
		c.kind = pqBytes
	case bool:
		c.kind = pqBool
	default: // string, time.Time
		c.kind = pqString
	}
	return true
}

// level is the definition level of v in an optional column.
func (c *parquetColumn) level(v any) int {
	if v == nil {
		return 0
	}
	return 1
}

// value converts v to the column's Parquet type, refusing any change of
// value (a float32 column gets only values float32 holds exactly).
func (c *parquetColumn) value(v any) (parquet.Value, error) {
	if v == nil {
		return parquet.NullValue(), nil
	}
	bad := func() (parquet.Value, error) {
		return parquet.Value{}, fmt.Errorf("%w: %s value %v in a column of type %s (CAST the expression to one type)",
			ErrParquetType, sqlClass(v), v, c.kind)
	}
	switch c.kind {
	case pqInt64:
		if i, ok := asInt64(v); ok {
			return parquet.Int64Value(i), nil
		}
	case pqInt8, pqInt16, pqInt32, pqUint8, pqUint16, pqUint32:
		if i, ok := asInt64(v); ok {
			if lo, hi := c.kind.intRange(); i >= lo && i <= hi {
				return parquet.Int32Value(int32(uint32(i))), nil
			}
		}
	case pqUint64:
		if i, ok := asInt64(v); ok && i >= 0 {
			return parquet.Int64Value(i), nil
		}
		if f, ok := v.(float64); ok && f >= 1<<63 {
			return parquet.Value{}, fmt.Errorf("%w: REAL value %v in a column of type %s: %s", ErrParquetType, f, c.kind, u64RealHint)
		}
	case pqDouble:
		switch x := v.(type) {
		case float64:
			return parquet.DoubleValue(x), nil
		case float32:
			return parquet.DoubleValue(float64(x)), nil
		}
		if i, ok := asInt64(v); ok && i >= -1<<53 && i <= 1<<53 { // exact in a float64
			return parquet.DoubleValue(float64(i)), nil
		}
	case pqFloat:
		switch x := v.(type) {
		case float32:
			return parquet.FloatValue(x), nil
		case float64:
			if f := float32(x); float64(f) == x || math.IsInf(x, 0) {
				return parquet.FloatValue(f), nil
			}
		}
		if i, ok := asInt64(v); ok && i >= -1<<24 && i <= 1<<24 { // exact in a float32
			return parquet.FloatValue(float32(i)), nil
		}
	case pqString:
		switch x := v.(type) {
		case string:
			return parquet.ByteArrayValue([]byte(x)), nil
		case time.Time:
			return parquet.ByteArrayValue([]byte(x.Format(time.RFC3339Nano))), nil
		}
	case pqBytes:
		switch x := v.(type) {
		case []byte:
			return parquet.ByteArrayValue(x), nil
		case string:
			return parquet.ByteArrayValue([]byte(x)), nil
		}
	case pqBool:
		if b, ok := v.(bool); ok {
			return parquet.BooleanValue(b), nil
		}
	}
	return bad()
}

// asInt64 returns v as an int64 when it is an integer.
func asInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int32:
		return int64(x), true
	case int:
		return int64(x), true
	}
	return 0, false
}

// sqlClass names the SQL storage class of a scanned value for messages.
func sqlClass(v any) string {
	switch v.(type) {
	case int64, int32, int:
		return "INTEGER"
	case float64, float32:
		return "REAL"
	case string:
		return "TEXT"
	case []byte:
		return "BLOB"
	case bool:
		return "BOOLEAN"
	}
	return fmt.Sprintf("%T", v)
}

// String names the Parquet type for messages.
func (k parquetKind) String() string {
	return [...]string{"unknown", "INT64", "FLOAT", "DOUBLE", "STRING", "BYTE_ARRAY", "BOOLEAN",
		"INT(8)", "INT(16)", "INT(32)", "UINT(8)", "UINT(16)", "UINT(32)", "UINT(64)"}[k]
}

// parquetSchema is the file schema: one optional leaf per column, in
// the result's column order.
func parquetSchema(cols []parquetColumn) *parquet.Schema {
	g := orderedGroup{Group: parquet.Group{}}
	for _, c := range cols {
		var leaf parquet.Node
		switch c.kind {
		case pqInt64:
			leaf = parquet.Leaf(parquet.Int64Type)
		case pqFloat:
			leaf = parquet.Leaf(parquet.FloatType)
		case pqDouble:
			leaf = parquet.Leaf(parquet.DoubleType)
		case pqBytes:
			leaf = parquet.Leaf(parquet.ByteArrayType)
		case pqBool:
			leaf = parquet.Leaf(parquet.BooleanType)
		case pqInt8, pqInt16, pqInt32:
			leaf = parquet.Int(8 << (c.kind - pqInt8))
		case pqUint8, pqUint16, pqUint32, pqUint64:
			leaf = parquet.Uint(8 << (c.kind - pqUint8))
		default:
			leaf = parquet.String()
		}
		g.Group[c.name] = parquet.Optional(leaf)
		g.order = append(g.order, c.name)
	}
	return parquet.NewSchema("tetsql", g)
}

// orderedGroup is a parquet.Group whose fields keep the result's column
// order (a plain Group sorts them by name).
type orderedGroup struct {
	parquet.Group
	order []string
}

// Fields returns the group's fields in column order.
func (g orderedGroup) Fields() []parquet.Field {
	byName := map[string]parquet.Field{}
	for _, f := range g.Group.Fields() {
		byName[f.Name()] = f
	}
	fields := make([]parquet.Field, len(g.order))
	for i, name := range g.order {
		fields[i] = byName[name]
	}
	return fields
}
