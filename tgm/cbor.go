package tgm

import (
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"time"

	"github.com/fxamacker/cbor/v2"
	"github.com/tetsql/tetsql/array"
)

// cborMode decodes every CBOR structure of a message. Tensogram writes
// canonical CBOR, but any well-formed CBOR is accepted (key order,
// integer widths, indefinite lengths). The decoder checks that the whole
// item is well formed before building anything, so array and map counts
// are bounded by the bytes that hold them; the limits below are therefore
// generous rather than tight.
var cborMode = func() cbor.DecMode {
	dm, err := cbor.DecOptions{
		MaxNestedLevels:      256,
		MaxArrayElements:     math.MaxInt32,
		MaxMapPairs:          math.MaxInt32,
		MapKeyByteString:     cbor.MapKeyByteStringAllowed,
		UnrecognizedTagToAny: cbor.UnrecognizedTagNumAndContentToAny,
	}.DecMode()
	if err != nil {
		panic(err) // the options above are constants
	}
	return dm
}()

// decodeCBOR decodes b, which must hold exactly one CBOR item, into plain
// Go values (see normalize).
func decodeCBOR(b []byte) (any, error) {
	var v any
	if err := cborMode.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("CBOR: %v: %w", err, array.ErrCorrupt)
	}
	return normalize(v), nil
}

// decodeCBORFirst decodes the CBOR item at the start of b and says how
// many bytes it took.
func decodeCBORFirst(b []byte) (any, int, error) {
	var v any
	rest, err := cborMode.UnmarshalFirst(b, &v)
	if err != nil {
		return nil, 0, fmt.Errorf("CBOR: %v: %w", err, array.ErrCorrupt)
	}
	return normalize(v), len(b) - len(rest), nil
}

// normalize turns a decoded CBOR value into the few types the package
// hands out: map[string]any, []any, string, []byte, bool, nil, int64,
// uint64 (only above math.MaxInt64), float64, *big.Int and Tag. Map keys
// become strings: text as is, integers in decimal, byte strings in hex,
// anything else in a CBOR-diagnostic-like form. When two keys become the
// same string (the integer 1 and the text "1"), the text key's value is
// kept, whatever order the map is walked in.
func normalize(v any) any {
	switch x := v.(type) {
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			ks := keyString(k)
			if _, dup := m[ks]; dup {
				if _, text := k.(string); !text {
					continue // a text key of the same string wins
				}
			}
			m[ks] = normalize(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = normalize(e)
		}
		return x
	case uint64:
		if x <= math.MaxInt64 {
			return int64(x)
		}
		return x
	case float32:
		return float64(x)
	case big.Int:
		return &x
	case cbor.ByteString:
		return []byte(x)
	case cbor.Tag:
		return Tag{Number: x.Number, Content: normalize(x.Content)}
	case cbor.SimpleValue:
		return Tag{Number: math.MaxUint64, Content: int64(x)}
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	}
	return v
}

// Tag is a CBOR tag the package does not interpret, kept with its
// content. (A CBOR simple value other than false, true, null and undefined
// is kept as a Tag with Number math.MaxUint64 and the value as Content.)
type Tag struct {
	Number  uint64
	Content any
}

// keyString is a map key as a string.
func keyString(k any) string {
	switch x := normalize(k).(type) {
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case []byte:
		return hex.EncodeToString(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return "null"
	default:
		return string(AppendJSON(nil, x))
	}
}

// asMap returns v as a map, or nil when it is not one.
func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// asInt returns an integer value (a float with an integral value too, as a
// non-canonical writer might produce) as int64.
func asInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<63 {
			return int64(x), true
		}
	}
	return 0, false
}

// asUint returns a non-negative integer value as uint64.
func asUint(v any) (uint64, bool) {
	switch x := v.(type) {
	case uint64:
		return x, true
	case int64:
		if x >= 0 {
			return uint64(x), true
		}
	}
	return 0, false
}

// asFloat returns a number as float64.
func asFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	case uint64:
		return float64(x), true
	}
	return 0, false
}

// withoutKey returns a shallow copy of m without key k (nil for nil).
func withoutKey(m map[string]any, k string) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for key, v := range m {
		if key != k {
			out[key] = v
		}
	}
	return out
}
