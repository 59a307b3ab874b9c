package tgm

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/tetsql/tetsql/array"
)

// packing holds the parameters of simple_packing.
type packing struct {
	ref   float64 // R, sp_reference_value
	scale float64 // 2^E / 10^D
	bits  int     // B, sp_bits_per_value
}

// readPacking reads the simple_packing parameters of the descriptor d
// (the zero packing for other encodings).
func readPacking(o *Object, d map[string]any) (packing, error) {
	if o.Encoding != "simple_packing" {
		return packing{}, nil
	}
	ref, ok := asFloat(d["sp_reference_value"])
	if !ok {
		return packing{}, fmt.Errorf("simple_packing: sp_reference_value %v is not a number: %w",
			d["sp_reference_value"], array.ErrCorrupt)
	}
	e, ok1 := asInt(d["sp_binary_scale_factor"])
	dec, ok2 := asInt(d["sp_decimal_scale_factor"])
	b, ok3 := asInt(d["sp_bits_per_value"])
	if !ok1 || !ok2 || !ok3 {
		return packing{}, fmt.Errorf("simple_packing: sp_binary_scale_factor %v, sp_decimal_scale_factor %v, sp_bits_per_value %v are not all integers: %w",
			d["sp_binary_scale_factor"], d["sp_decimal_scale_factor"], d["sp_bits_per_value"], array.ErrCorrupt)
	}
	if b < 0 || b > 64 {
		return packing{}, fmt.Errorf("simple_packing: sp_bits_per_value %d (0 to 64 are read): %w", b, array.ErrUnsupported)
	}
	// Out-of-range factors give 0 or ±Inf scales (Ldexp and Pow10
	// saturate), as float64 arithmetic would anyway.
	e = max(min(e, 1<<16), -1<<16)
	dec = max(min(dec, 1<<16), -1<<16)
	// 2^E / 10^D once per object, then R + X·scale: this reproduces the
	// reference decoder bit for bit ((X·2^E)/10^D does not when D ≠ 0).
	return packing{ref: ref, scale: math.Ldexp(1, int(e)) / math.Pow10(int(dec)), bits: int(b)}, nil
}

// packedSize is the size of n packed B-bit values: ceil(n·B/8), computed
// as (n/8)·B + ceil((n%8)·B/8) so that it cannot overflow for any n ≥ 0
// the result fits (B ≤ 64: the result is at most 8n).
func (p packing) packedSize(n int64) int64 {
	b := int64(p.bits)
	return n/8*b + (n%8*b+7)/8
}

// unpack writes the n values packed MSB-first in src to dst as
// little-endian float64. len(src) must be packedSize(n) and len(dst) 8·n.
func (p packing) unpack(dst, src []byte, n int64) {
	b := p.bits
	if b == 0 {
		bitsR := math.Float64bits(p.ref)
		for i := int64(0); i < n; i++ {
			binary.LittleEndian.PutUint64(dst[8*i:], bitsR)
		}
		return
	}
	ref, scale := p.ref, p.scale
	put := func(i int64, x uint64) {
		// The explicit conversion forbids fusing into an FMA, which would
		// round once instead of twice and differ from the reference.
		v := ref + float64(float64(x)*scale)
		binary.LittleEndian.PutUint64(dst[8*i:], math.Float64bits(v))
	}
	switch b {
	case 8:
		for i := int64(0); i < n; i++ {
			put(i, uint64(src[i]))
		}
		return
	case 16:
		for i := int64(0); i < n; i++ {
			put(i, uint64(binary.BigEndian.Uint16(src[2*i:])))
		}
		return
	case 32:
		for i := int64(0); i < n; i++ {
			put(i, uint64(binary.BigEndian.Uint32(src[4*i:])))
		}
		return
	case 64:
		for i := int64(0); i < n; i++ {
			put(i, binary.BigEndian.Uint64(src[8*i:]))
		}
		return
	}
	// Other widths (b < 64 here): the value's bits start at bit `shift`
	// of the 9 bytes from its first byte (shift + b ≤ 7 + 63). Near the
	// end, bytes past the stream read as zero.
	fast := int64(len(src)) - 9
	for i := int64(0); i < n; i++ {
		bit := i * int64(b)
		at, shift := bit/8, uint(bit%8)
		var w, next uint64
		if at <= fast {
			w, next = binary.BigEndian.Uint64(src[at:]), uint64(src[at+8])
		} else {
			for k := int64(0); k < 9; k++ {
				var c uint64
				if at+k < int64(len(src)) {
					c = uint64(src[at+k])
				}
				if k < 8 {
					w = w<<8 | c
				} else {
					next = c
				}
			}
		}
		hi := w << shift
		if shift > 0 {
			hi |= next >> (8 - shift)
		}
		put(i, hi>>(64-uint(b)))
	}
}
