package tgm

import (
	"encoding/hex"
	"encoding/json"
	"math"
	"math/big"
	"slices"
	"strconv"
	"unicode/utf8"
)

// AppendJSON appends the JSON text of a metadata value (as found in
// Message.Metadata and Object.Metadata) to dst. Maps have their keys
// sorted; byte strings become strings of lowercase hex; NaN and ±Inf,
// which JSON cannot hold, become the strings "NaN", "Infinity" and
// "-Infinity"; integers beyond 64 bits are written in full; a CBOR tag the
// package does not interpret becomes {"tag": n, "value": content}.
func AppendJSON(dst []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...)
	case bool:
		return strconv.AppendBool(dst, x)
	case string:
		return appendString(dst, x)
	case []byte:
		return appendString(dst, hex.EncodeToString(x))
	case int64:
		return strconv.AppendInt(dst, x, 10)
	case uint64:
		return strconv.AppendUint(dst, x, 10)
	case int:
		return strconv.AppendInt(dst, int64(x), 10)
	case float64:
		return appendFloat(dst, x)
	case *big.Int:
		return x.Append(dst, 10)
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendJSON(dst, e)
		}
		return append(dst, ']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, k)
			dst = append(dst, ':')
			dst = AppendJSON(dst, x[k])
		}
		return append(dst, '}')
	case Tag:
		dst = append(dst, `{"tag":`...)
		dst = strconv.AppendUint(dst, x.Number, 10)
		dst = append(dst, `,"value":`...)
		dst = AppendJSON(dst, x.Content)
		return append(dst, '}')
	}
	// Not produced by the decoder; still valid JSON rather than a panic.
	b, err := json.Marshal(v)
	if err != nil {
		return append(dst, "null"...)
	}
	return append(dst, b...)
}

// JSON is the JSON text of a metadata value (see AppendJSON).
func JSON(v any) string { return string(AppendJSON(nil, v)) }

func appendFloat(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(dst, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(dst, `"-Infinity"`...)
	}
	b, _ := json.Marshal(f) // finite: cannot fail
	return append(dst, b...)
}

// appendString appends s as a JSON string: quotes, backslashes and
// control characters escaped, invalid UTF-8 replaced by U+FFFD.
func appendString(dst []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	dst = append(dst, '"')
	for _, r := range s { // ranging replaces invalid UTF-8 by U+FFFD
		switch {
		case r == '"' || r == '\\':
			dst = append(dst, '\\', byte(r))
		case r == '\n':
			dst = append(dst, '\\', 'n')
		case r == '\r':
			dst = append(dst, '\\', 'r')
		case r == '\t':
			dst = append(dst, '\\', 't')
		case r < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[r>>4], hexDigits[r&15])
		default:
			dst = utf8.AppendRune(dst, r)
		}
	}
	return append(dst, '"')
}
