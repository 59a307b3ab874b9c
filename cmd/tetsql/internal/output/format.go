package output

import (
	"fmt"
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// timeLayout is how time.Time values print in every mode: SQLite's own
// date-time text form (which its date functions accept) with nanoseconds
// when present and a numeric zone offset.
const timeLayout = "2006-01-02 15:04:05.999999999-07:00"

// appendText appends the text form of v, used by every mode except json and
// jsonl. NULL prints as null. Strings print as is; escaping for a mode is
// applied by the caller.
func appendText(dst []byte, v any, null string) []byte {
	switch x := v.(type) {
	case nil:
		return append(dst, null...)
	case int64:
		return strconv.AppendInt(dst, x, 10)
	case float64:
		return appendFloat(dst, x, 64)
	case string:
		return append(dst, x...)
	case []byte:
		return appendBlob(dst, x)
	case bool:
		return strconv.AppendBool(dst, x)
	case time.Time:
		return x.AppendFormat(dst, timeLayout)
	case int:
		return strconv.AppendInt(dst, int64(x), 10)
	case int32:
		return strconv.AppendInt(dst, int64(x), 10)
	case int16:
		return strconv.AppendInt(dst, int64(x), 10)
	case int8:
		return strconv.AppendInt(dst, int64(x), 10)
	case uint64:
		return strconv.AppendUint(dst, x, 10)
	case uint:
		return strconv.AppendUint(dst, uint64(x), 10)
	case uint32:
		return strconv.AppendUint(dst, uint64(x), 10)
	case uint16:
		return strconv.AppendUint(dst, uint64(x), 10)
	case uint8:
		return strconv.AppendUint(dst, uint64(x), 10)
	case float32:
		return appendFloat(dst, float64(x), 32)
	}
	return fmt.Append(dst, v)
}

// isNumber reports whether v is a Go integer or float value.
func isNumber(v any) bool {
	switch v.(type) {
	case int64, float64, int, int32, int16, int8, uint64, uint, uint32, uint16, uint8, float32:
		return true
	}
	return false
}

// appendBlob appends b as text when it is valid UTF-8 (what sqlite3 shows
// for a blob holding text) and otherwise as the SQL blob literal X'0AFF',
// which can be pasted back into a query.
func appendBlob(dst, b []byte) []byte {
	if utf8.Valid(b) {
		return append(dst, b...)
	}
	const hex = "0123456789ABCDEF"
	dst = append(dst, 'X', '\'')
	for _, c := range b {
		dst = append(dst, hex[c>>4], hex[c&15])
	}
	return append(dst, '\'')
}

// appendFloat appends f in the shortest form that parses back to the same
// float (bitSize 64 or 32), laid out like sqlite3's "%!.15g": fixed
// notation for decimal exponents -4 through 14, otherwise an exponent with
// at least two digits; a decimal point is always present, so a REAL never
// looks like an INTEGER (3.0, 1.0e+300, -0.0). NaN and ±Inf print as NaN,
// Inf and -Inf.
func appendFloat(dst []byte, f float64, bitSize int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Inf"...)
	case math.IsInf(f, -1):
		return append(dst, "-Inf"...)
	}
	var tmp [32]byte
	e := strconv.AppendFloat(tmp[:0], f, 'e', -1, bitSize) // -d.ddde±XX
	epos := len(e) - 1
	for e[epos] != 'e' {
		epos--
	}
	exp := 0
	for _, c := range e[epos+2:] {
		exp = exp*10 + int(c-'0')
	}
	if e[epos+1] == '-' {
		exp = -exp
	}
	if exp < -4 || exp >= 15 {
		if e[1] == '.' || e[2] == '.' {
			return append(dst, e...)
		}
		dst = append(dst, e[:epos]...)
		dst = append(dst, '.', '0')
		return append(dst, e[epos:]...)
	}
	mant := e[:epos]
	if mant[0] == '-' {
		dst = append(dst, '-')
		mant = mant[1:]
	}
	// digits: mant without the '.'
	var dbuf [24]byte
	d := append(dbuf[:0], mant[0])
	if len(mant) > 2 {
		d = append(d, mant[2:]...)
	}
	if exp < 0 {
		dst = append(dst, '0', '.')
		for i := -1; i > exp; i-- {
			dst = append(dst, '0')
		}
		return append(dst, d...)
	}
	if len(d) <= exp+1 {
		dst = append(dst, d...)
		for i := len(d); i <= exp; i++ {
			dst = append(dst, '0')
		}
		return append(dst, '.', '0')
	}
	dst = append(dst, d[:exp+1]...)
	dst = append(dst, '.')
	return append(dst, d[exp+1:]...)
}

// appendJSONValue appends v as a JSON value: numbers as numbers (±Inf as
// ±1e999 like sqlite3 -json, NaN as null), booleans as true/false and
// everything else as a string holding its text form.
func appendJSONValue(dst []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...)
	case string:
		return appendJSONString(dst, x)
	case bool:
		return strconv.AppendBool(dst, x)
	case float64:
		return appendJSONFloat(dst, x, 64)
	case float32:
		return appendJSONFloat(dst, float64(x), 32)
	case []byte:
		if utf8.Valid(x) {
			return appendJSONString(dst, string(x))
		}
		return append(appendBlob(append(dst, '"'), x), '"') // X'..' needs no escaping
	}
	if isNumber(v) {
		return appendText(dst, v, "")
	}
	var tmp [64]byte
	return appendJSONString(dst, string(appendText(tmp[:0], v, "")))
}

func appendJSONFloat(dst []byte, f float64, bitSize int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "null"...)
	case math.IsInf(f, 1):
		return append(dst, "1e999"...)
	case math.IsInf(f, -1):
		return append(dst, "-1e999"...)
	}
	return appendFloat(dst, f, bitSize)
}
