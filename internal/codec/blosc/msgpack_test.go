package blosc

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestValue decodes every msgpack form an attribute may use.
func TestValue(t *testing.T) {
	tests := []struct {
		in   []byte
		want any
	}{
		{[]byte{0x05}, int64(5)},
		{[]byte{0xff}, int64(-1)},
		{[]byte{0xc0}, nil},
		{[]byte{0xc3}, true},
		{[]byte{0xcc, 0xfa}, int64(250)},
		{[]byte{0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, uint64(math.MaxUint64)},
		{[]byte{0xd1, 0xff, 0x38}, int64(-200)},
		{[]byte{0xcb, 0x3f, 0xe0, 0, 0, 0, 0, 0, 0}, 0.5},
		{[]byte{0xca, 0x3f, 0x80, 0, 0}, 1.0},
		{[]byte{0xa4, 'd', 'e', 'g', 'C'}, "degC"},
		{[]byte{0xd9, 2, 'h', 'i'}, "hi"},
		{[]byte{0xc4, 2, 1, 2}, []byte{1, 2}},
		{[]byte{0x92, 0x01, 0xa1, 'x'}, []any{int64(1), "x"}},
		{[]byte{0xdc, 0, 1, 0xc2}, []any{false}},
		{[]byte{0x81, 0xa1, 'k', 0x90}, map[string]any{"k": []any{}}},
		{[]byte{0x81, 0x07, 0x08}, map[string]any{"7": int64(8)}},
		{[]byte{0xd4, 0x03, 0x09}, "<ext 3, 1 bytes>"},
	}
	for _, tc := range tests {
		r := NewMsgReader(tc.in, "test")
		v, err := r.Value()
		if err != nil || !reflect.DeepEqual(v, tc.want) || r.Pos() != len(tc.in) {
			t.Errorf("value(% x) = %#v, %v (read %d); want %#v", tc.in, v, err, r.Pos(), tc.want)
		}
	}
	deep := append(make([]byte, 0, 100), []byte(strings.Repeat("\x91", 100))...)
	for _, bad := range [][]byte{{}, {0xc1}, {0xa4, 'a'}, {0xdd, 0xff, 0xff, 0xff, 0xff}, {0xc6, 0xff, 0xff, 0xff, 0xff}, {0xdf, 0xff, 0xff, 0xff, 0xff}, deep} {
		if v, err := NewMsgReader(bad, "test").Value(); !errors.Is(err, ErrCorrupt) {
			t.Errorf("value(% x) = %v, %v; want ErrCorrupt", bad, v, err)
		}
	}
}
