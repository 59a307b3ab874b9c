package tgm

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/tetsql/tetsql/array"
)

// Roaring bitmap portable serialisation (the format of CRoaring, Java
// RoaringBitmap and the Rust roaring crate).
const (
	roaringCookieNoRun   = 12346 // u32 cookie, then a u32 container count
	roaringCookieRun     = 12347 // low 16 bits; high 16 bits: count − 1
	roaringNoOffsetLimit = 4     // with runs, fewer containers have no offset header
	roaringArrayMax      = 4096  // larger containers without runs are bitmaps
	roaringBitmapBytes   = 8192
)

// decodeRoaring decodes a portable Roaring bitmap into an MSB-first bitset
// of n elements. Every count is checked against the bytes that remain
// before it is used, so the work is bounded by len(blob) and n.
func decodeRoaring(blob []byte, n int64) ([]byte, error) {
	r := roaringReader{b: blob}
	cookie, err := r.u32()
	if err != nil {
		return nil, err
	}
	var count int
	var runBits []byte
	switch {
	case cookie&0xFFFF == roaringCookieRun:
		count = int(cookie>>16) + 1
		if runBits, err = r.bytes((count + 7) / 8); err != nil {
			return nil, err
		}
	case cookie == roaringCookieNoRun:
		c, err := r.u32()
		if err != nil {
			return nil, err
		}
		if c > 1<<16 {
			return nil, fmt.Errorf("roaring: %d containers (at most 65536): %w", c, array.ErrCorrupt)
		}
		count = int(c)
	default:
		return nil, fmt.Errorf("roaring: unknown cookie %#x: %w", cookie, array.ErrCorrupt)
	}
	header, err := r.bytes(4 * count) // per container: key u16, cardinality − 1 u16
	if err != nil {
		return nil, err
	}
	if runBits == nil || count >= roaringNoOffsetLimit {
		if _, err := r.bytes(4 * count); err != nil { // offsets: the containers follow in order anyway
			return nil, err
		}
	}
	out := make([]byte, (n+7)/8)
	set := func(v int64) error {
		if v >= n {
			return fmt.Errorf("roaring: position %d outside the %d elements: %w", v, n, array.ErrCorrupt)
		}
		out[v/8] |= 0x80 >> (v % 8)
		return nil
	}
	prevKey := int64(-1)
	for i := 0; i < count; i++ {
		key := int64(binary.LittleEndian.Uint16(header[4*i:])) << 16
		// Increasing keys and runs (as the format requires) bound the
		// work of run containers by n.
		if key <= prevKey {
			return nil, fmt.Errorf("roaring: container keys not increasing: %w", array.ErrCorrupt)
		}
		prevKey = key
		card := int(binary.LittleEndian.Uint16(header[4*i+2:])) + 1
		isRun := runBits != nil && runBits[i/8]&(1<<(i%8)) != 0
		switch {
		case isRun:
			nr, err := r.u16()
			if err != nil {
				return nil, err
			}
			runs, err := r.bytes(4 * int(nr))
			if err != nil {
				return nil, err
			}
			next := int64(0) // runs must start at or after it
			for k := 0; k < int(nr); k++ {
				start := int64(binary.LittleEndian.Uint16(runs[4*k:]))
				length := int64(binary.LittleEndian.Uint16(runs[4*k+2:])) // run of length+1 values
				if start < next || start+length > 0xFFFF {
					return nil, fmt.Errorf("roaring: run [%d, +%d] overlaps the previous one or leaves its container: %w",
						start, length+1, array.ErrCorrupt)
				}
				next = start + length + 1
				if key+start+length >= n {
					return nil, fmt.Errorf("roaring: run ending at %d outside the %d elements: %w", key+start+length, n, array.ErrCorrupt)
				}
				setRange(out, key+start, key+start+length+1)
			}
		case card > roaringArrayMax:
			words, err := r.bytes(roaringBitmapBytes)
			if err != nil {
				return nil, err
			}
			for w := 0; w < roaringBitmapBytes/8; w++ {
				x := binary.LittleEndian.Uint64(words[8*w:])
				for x != 0 {
					bit := int64(bits.TrailingZeros64(x))
					x &= x - 1
					if err := set(key + int64(w)*64 + bit); err != nil {
						return nil, err
					}
				}
			}
		default:
			vals, err := r.bytes(2 * card)
			if err != nil {
				return nil, err
			}
			for k := 0; k < card; k++ {
				if err := set(key + int64(binary.LittleEndian.Uint16(vals[2*k:]))); err != nil {
					return nil, err
				}
			}
		}
	}
	return out, nil
}

// roaringReader reads little-endian fields, failing past the end.
type roaringReader struct {
	b   []byte
	pos int
}

func (r *roaringReader) bytes(n int) ([]byte, error) {
	if n < 0 || n > len(r.b)-r.pos {
		return nil, fmt.Errorf("roaring: %d bytes needed at offset %d of a %d-byte bitmap: %w",
			n, r.pos, len(r.b), array.ErrCorrupt)
	}
	out := r.b[r.pos : r.pos+n]
	r.pos += n
	return out, nil
}

func (r *roaringReader) u16() (uint16, error) {
	b, err := r.bytes(2)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint16(b), nil
}

func (r *roaringReader) u32() (uint32, error) {
	b, err := r.bytes(4)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}
