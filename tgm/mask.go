package tgm

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/tetsql/tetsql/array"
)

// maskKinds are the descriptor's mask keys, in the order masks apply.
var maskKinds = []string{"nan", "inf+", "inf-"}

// mask is one NaN / ±Inf mask of an object.
type mask struct {
	kind   string // "nan", "inf+" or "inf-"
	method string // none, rle, roaring, zstd, lz4, blosc2
	offset uint64 // of the blob, from the start of the payload region
	blob   []byte
}

// readMask reads the mask spec {method, offset, length[, params]} of kind
// and checks that its blob lies inside the region.
func readMask(kind string, spec any, region []byte) (mask, error) {
	m := asMap(spec)
	if m == nil {
		return mask{}, fmt.Errorf("%s mask is a %T, not a map: %w", kind, spec, array.ErrCorrupt)
	}
	method, ok := m["method"].(string)
	off, ok1 := asUint(m["offset"])
	n, ok2 := asUint(m["length"])
	if !ok || !ok1 || !ok2 {
		return mask{}, fmt.Errorf("%s mask needs a method, an offset and a length (has %v): %w", kind, m, array.ErrCorrupt)
	}
	if off > uint64(len(region)) || n > uint64(len(region))-off {
		return mask{}, fmt.Errorf("%s mask blob [%d, +%d) lies outside the %d-byte payload region: %w",
			kind, off, n, len(region), array.ErrCorrupt)
	}
	return mask{kind: kind, method: method, offset: off, blob: region[off : off+n]}, nil
}

// bitset decodes the mask into ceil(n/8) bytes, element i at bit 7 − i%8
// of byte i/8. Set bits at positions ≥ n are an error.
func (m mask) bitset(n int64) ([]byte, error) {
	size := (n + 7) / 8
	what := m.kind + " mask"
	var out []byte
	var err error
	switch m.method {
	case "none":
		if int64(len(m.blob)) != size {
			return nil, fmt.Errorf("%s: %d bytes, %d expected for %d elements: %w", what, len(m.blob), size, n, array.ErrCorrupt)
		}
		out = m.blob
	case "rle":
		out, err = decodeRLE(m.blob, n)
	case "roaring":
		out, err = decodeRoaring(m.blob, n)
	case "zstd", "lz4", "blosc2":
		out, err = decompress(m.method, m.blob, nil, size, what)
	default:
		return nil, fmt.Errorf("%s: unknown mask method %q: %w", what, m.method, array.ErrUnsupported)
	}
	if err != nil {
		return nil, fmt.Errorf("%s (%s): %w", what, m.method, err)
	}
	if r := n % 8; r != 0 && out[len(out)-1]&(0xFF>>r) != 0 {
		return nil, fmt.Errorf("%s: bits set past the last of %d elements: %w", what, n, array.ErrCorrupt)
	}
	return out, nil
}

// decodeRLE decodes the rle mask method: a first byte 0 or 1 giving the
// value of the first run, then ULEB128 run lengths of alternating value,
// summing to n.
func decodeRLE(blob []byte, n int64) ([]byte, error) {
	if len(blob) == 0 || blob[0] > 1 {
		return nil, fmt.Errorf("rle mask does not start with a 0 or 1 byte: %w", array.ErrCorrupt)
	}
	out := make([]byte, (n+7)/8)
	val := blob[0] == 1
	pos := int64(0)
	for p := 1; p < len(blob); {
		run, k := binary.Uvarint(blob[p:])
		if k <= 0 {
			return nil, fmt.Errorf("rle mask: bad run length at byte %d: %w", p, array.ErrCorrupt)
		}
		p += k
		if run > uint64(n-pos) {
			return nil, fmt.Errorf("rle mask: runs pass the %d elements: %w", n, array.ErrCorrupt)
		}
		if val {
			setRange(out, pos, pos+int64(run))
		}
		pos += int64(run)
		val = !val
	}
	if pos != n {
		return nil, fmt.Errorf("rle mask: runs cover %d of %d elements: %w", pos, n, array.ErrCorrupt)
	}
	return out, nil
}

// setRange sets bits [from, to) of an MSB-first bitset.
func setRange(b []byte, from, to int64) {
	for i := from; i < to; {
		if i%8 == 0 && to-i >= 8 {
			b[i/8] = 0xFF
			i += 8
			continue
		}
		b[i/8] |= 0x80 >> (i % 8)
		i++
	}
}

// applyMasks decodes the object's masks and writes NaN / ±Inf of type t
// into the little-endian elements of out at the masked positions.
// Overlapping masks are an error.
func (o *Object) applyMasks(out []byte, t array.DType) error {
	if len(o.masks) == 0 {
		return nil
	}
	if !t.IsFloat() {
		return fmt.Errorf("NaN/Inf masks on dtype %s, which has no NaN or Inf: %w", o.DType, array.ErrCorrupt)
	}
	n := o.elements
	var seen []byte
	for _, m := range o.masks {
		set, err := m.bitset(n)
		if err != nil {
			return err
		}
		if seen == nil {
			seen = make([]byte, len(set))
		}
		for i, c := range set {
			if c&seen[i] != 0 {
				return fmt.Errorf("%s mask overlaps another mask at element %d: %w",
					m.kind, int64(i)*8+int64(bits.LeadingZeros8(c&seen[i])), array.ErrCorrupt)
			}
			seen[i] |= c
		}
		writeSpecial(out, set, t, m.kind)
	}
	return nil
}

// writeSpecial writes the special value of kind at every set position.
func writeSpecial(out, set []byte, t array.DType, kind string) {
	var v16 uint16
	var v32 uint32
	var v64 uint64
	switch kind {
	case "nan":
		v16, v32, v64 = nan16, nan32, nan64
	case "inf+":
		v16, v32, v64 = inf16, inf32, inf64
	default:
		v16, v32, v64 = inf16|0x8000, inf32|0x80000000, inf64|1<<63
	}
	for i, c := range set {
		for c != 0 {
			j := int64(i)*8 + int64(bits.LeadingZeros8(c))
			c &^= 0x80 >> (j % 8)
			switch t {
			case array.F16:
				binary.LittleEndian.PutUint16(out[2*j:], v16)
			case array.F32:
				binary.LittleEndian.PutUint32(out[4*j:], v32)
			default:
				binary.LittleEndian.PutUint64(out[8*j:], v64)
			}
		}
	}
}
