package blosc

import (
	"fmt"
	"math"
)

// MsgReader walks msgpack bytes with bounds checks. Every read that would
// pass the end fails with ErrCorrupt instead of panicking. Frames use only
// a handful of fixed markers, so most methods read exactly one expected
// form; Value reads any. Metalayer contents (such as the N-d layout of a
// 'b2nd' metalayer) are msgpack too, so the reader is exported for their
// parsers.
type MsgReader struct {
	b      []byte
	pos    int
	ctx    string // names the structure being read, for errors
	values int    // values decoded so far (see MaxMsgValues)
}

// MaxMsgValues bounds the values one MsgReader decodes (and the frame
// parser, all attributes of a frame together). A value costs a byte of
// input but tens of bytes as a Go value, so 64 MiB of attributes (the
// frame's budget) could otherwise build gigabytes of them.
const MaxMsgValues = 1 << 20

// NewMsgReader reads b from its start; ctx names what b holds in errors.
func NewMsgReader(b []byte, ctx string) *MsgReader { return &MsgReader{b: b, ctx: ctx} }

// Pos is the number of bytes read so far.
func (r *MsgReader) Pos() int { return r.pos }

// Errorf returns an ErrCorrupt error naming the structure and the current
// byte position.
func (r *MsgReader) Errorf(format string, args ...any) error {
	return fmt.Errorf("%s at byte %d: %s: %w", r.ctx, r.pos, fmt.Sprintf(format, args...), ErrCorrupt)
}

// Expect checks that the next byte is want without reading it.
func (r *MsgReader) Expect(want byte, what string) error {
	if err := r.Marker(want, what); err != nil {
		return err
	}
	r.pos--
	return nil
}

// take returns the next n bytes.
func (r *MsgReader) take(n int) ([]byte, error) {
	if n < 0 || n > len(r.b)-r.pos {
		return nil, r.Errorf("needs %d bytes, %d left", n, len(r.b)-r.pos)
	}
	s := r.b[r.pos : r.pos+n]
	r.pos += n
	return s, nil
}

func (r *MsgReader) byte1() (byte, error) {
	s, err := r.take(1)
	if err != nil {
		return 0, err
	}
	return s[0], nil
}

// Marker reads one byte that must equal want.
func (r *MsgReader) Marker(want byte, what string) error {
	c, err := r.byte1()
	if err != nil {
		return err
	}
	if c != want {
		r.pos--
		return r.Errorf("%s: marker 0x%02x, want 0x%02x", what, c, want)
	}
	return nil
}

// uint reads a big-endian unsigned integer of n bytes (1, 2, 4 or 8).
func (r *MsgReader) uint(n int) (uint64, error) {
	s, err := r.take(n)
	if err != nil {
		return 0, err
	}
	var v uint64
	for _, c := range s {
		v = v<<8 | uint64(c)
	}
	return v, nil
}

// Int32 reads a `d2` int32.
func (r *MsgReader) Int32(what string) (int32, error) {
	if err := r.Marker(0xd2, what); err != nil {
		return 0, err
	}
	v, err := r.uint(4)
	return int32(uint32(v)), err
}

// Int64 reads a `d3` int64.
func (r *MsgReader) Int64(what string) (int64, error) {
	if err := r.Marker(0xd3, what); err != nil {
		return 0, err
	}
	v, err := r.uint(8)
	return int64(v), err
}

// Fixint reads a positive fixint (0..127).
func (r *MsgReader) Fixint(what string) (int, error) {
	c, err := r.byte1()
	if err != nil {
		return 0, err
	}
	if c > 0x7f {
		r.pos--
		return 0, r.Errorf("%s: marker 0x%02x, want a positive fixint", what, c)
	}
	return int(c), nil
}

// Fixarray reads a fixarray marker and returns its length.
func (r *MsgReader) Fixarray(what string) (int, error) {
	c, err := r.byte1()
	if err != nil {
		return 0, err
	}
	if c&0xf0 != 0x90 {
		r.pos--
		return 0, r.Errorf("%s: marker 0x%02x, want a fixarray", what, c)
	}
	return int(c & 0x0f), nil
}

// mapLen reads a map16 (`de`) or a fixmap marker.
func (r *MsgReader) mapLen(what string) (int, error) {
	c, err := r.byte1()
	if err != nil {
		return 0, err
	}
	switch {
	case c == 0xde:
		v, err := r.uint(2)
		return int(v), err
	case c&0xf0 == 0x80:
		return int(c & 0x0f), nil
	}
	r.pos--
	return 0, r.Errorf("%s: marker 0x%02x, want a map", what, c)
}

// Str reads any msgpack string form (fixstr, str8/16/32).
func (r *MsgReader) Str(what string) (string, error) {
	c, err := r.byte1()
	if err != nil {
		return "", err
	}
	var n uint64
	switch {
	case c&0xe0 == 0xa0:
		n = uint64(c & 0x1f)
	case c == 0xd9:
		n, err = r.uint(1)
	case c == 0xda:
		n, err = r.uint(2)
	case c == 0xdb:
		n, err = r.uint(4)
	default:
		r.pos--
		return "", r.Errorf("%s: marker 0x%02x, want a string", what, c)
	}
	if err != nil {
		return "", err
	}
	if n > uint64(len(r.b)-r.pos) {
		return "", r.Errorf("%s: string of %d bytes, %d left", what, n, len(r.b)-r.pos)
	}
	s, err := r.take(int(n))
	return string(s), err
}

// maxDepth bounds the nesting of decoded attribute values, so a hostile
// attribute cannot exhaust the stack.
const maxDepth = 32

// Value decodes the next msgpack value of any form into Go values: nil, bool,
// int64, uint64 (only above MaxInt64), float64, string, []byte, []any,
// map[string]any (non-string keys are formatted with %v). Extension values
// become the placeholder string "<ext N, L bytes>". Containers are built
// element by element, so a lying length fails when the bytes run out
// rather than allocating it up front.
func (r *MsgReader) Value() (any, error) { return r.value(0) }

// value decodes one value nested depth containers deep (see Value).
func (r *MsgReader) value(depth int) (any, error) {
	if depth > maxDepth {
		return nil, r.Errorf("values nested deeper than %d", maxDepth)
	}
	if r.values++; r.values > MaxMsgValues {
		return nil, r.Errorf("more than %d values", MaxMsgValues)
	}
	c, err := r.byte1()
	if err != nil {
		return nil, err
	}
	switch {
	case c <= 0x7f:
		return int64(c), nil
	case c >= 0xe0:
		return int64(int8(c)), nil
	case c&0xf0 == 0x80:
		return r.mapBody(int(c&0x0f), depth)
	case c&0xf0 == 0x90:
		return r.arrayBody(int(c&0x0f), depth)
	case c&0xe0 == 0xa0:
		r.pos--
		return r.Str("string")
	}
	switch c {
	case 0xc0:
		return nil, nil
	case 0xc2, 0xc3:
		return c == 0xc3, nil
	case 0xc4, 0xc5, 0xc6:
		n, err := r.uint(1 << (c - 0xc4))
		if err != nil {
			return nil, err
		}
		if n > uint64(len(r.b)-r.pos) {
			return nil, r.Errorf("binary of %d bytes, %d left", n, len(r.b)-r.pos)
		}
		s, err := r.take(int(n))
		return append([]byte(nil), s...), err
	case 0xc7, 0xc8, 0xc9:
		n, err := r.uint(1 << (c - 0xc7))
		if err != nil {
			return nil, err
		}
		return r.ext(n)
	case 0xca:
		v, err := r.uint(4)
		return float64(math.Float32frombits(uint32(v))), err
	case 0xcb:
		v, err := r.uint(8)
		return math.Float64frombits(v), err
	case 0xcc, 0xcd, 0xce, 0xcf:
		v, err := r.uint(1 << (c - 0xcc))
		if err != nil || v > math.MaxInt64 {
			return v, err
		}
		return int64(v), nil
	case 0xd0, 0xd1, 0xd2, 0xd3:
		n := 1 << (c - 0xd0)
		v, err := r.uint(n)
		shift := 64 - 8*n
		return int64(v<<shift) >> shift, err
	case 0xd4, 0xd5, 0xd6, 0xd7, 0xd8:
		return r.ext(1 << (c - 0xd4))
	case 0xd9, 0xda, 0xdb:
		r.pos--
		return r.Str("string")
	case 0xdc, 0xdd:
		n, err := r.uint(2 << (c - 0xdc))
		if err != nil {
			return nil, err
		}
		return r.arrayBody(int(min(n, math.MaxInt32)), depth)
	case 0xde, 0xdf:
		n, err := r.uint(2 << (c - 0xde))
		if err != nil {
			return nil, err
		}
		return r.mapBody(int(min(n, math.MaxInt32)), depth)
	}
	r.pos--
	return nil, r.Errorf("unknown msgpack marker 0x%02x", c)
}

// ext skips an extension value's type byte and n data bytes.
func (r *MsgReader) ext(n uint64) (any, error) {
	t, err := r.byte1()
	if err != nil {
		return nil, err
	}
	if n > uint64(len(r.b)-r.pos) {
		return nil, r.Errorf("extension of %d bytes, %d left", n, len(r.b)-r.pos)
	}
	r.pos += int(n)
	return fmt.Sprintf("<ext %d, %d bytes>", int8(t), n), nil
}

func (r *MsgReader) arrayBody(n, depth int) (any, error) {
	out := []any{}
	for i := 0; i < n; i++ {
		v, err := r.value(depth + 1)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func (r *MsgReader) mapBody(n, depth int) (any, error) {
	out := map[string]any{}
	for i := 0; i < n; i++ {
		k, err := r.value(depth + 1)
		if err != nil {
			return nil, err
		}
		v, err := r.value(depth + 1)
		if err != nil {
			return nil, err
		}
		ks, ok := k.(string)
		if !ok {
			ks = fmt.Sprint(k)
		}
		out[ks] = v
	}
	return out, nil
}
