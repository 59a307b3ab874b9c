package blosc

import (
	"encoding/binary"
	"fmt"
)

// Filter ids of the six filter slots.
const (
	filterNone       = 0
	filterShuffle    = 1
	filterBitshuffle = 2
	filterDelta      = 3
	filterTruncPrec  = 4
	filterBytedelta  = 35
)

// checkFilters refuses filter ids this reader cannot undo, naming them.
func checkFilters(h *Header) error {
	for slot, f := range h.Filters {
		switch f {
		case filterNone, filterShuffle, filterBitshuffle, filterDelta, filterTruncPrec, filterBytedelta:
		default:
			return fmt.Errorf("%w: filter id %d (slot %d)", ErrUnsupported, f, slot)
		}
	}
	return nil
}

// Unshuffle undoes the byte shuffle filter (Blosc2's, and Tensogram's
// shuffle filter, which is the same) with element size es: src holds
// byte 0 of every element, then byte 1, ...; the bytes after the last
// whole element are stored as they were. len(dst) must be len(src).
func Unshuffle(dst, src []byte, es int) { unshuffle(dst, src, es) }

// unshuffle is Unshuffle (SSE2 for element sizes 2, 4 and 8 on amd64).
func unshuffle(dst, src []byte, es int) {
	n := len(src)
	m := n / es
	if es <= 1 || m == 0 {
		copy(dst, src)
		return
	}
	switch es {
	case 2:
		unshuffle2(dst, src, m, unshuffleSIMD(dst, src, m, es))
	case 4:
		unshuffle4(dst, src, m, unshuffleSIMD(dst, src, m, es))
	case 8:
		unshuffle8(dst, src, m, unshuffleSIMD(dst, src, m, es))
	default:
		unshuffleAny(dst, src, m, es)
	}
	copy(dst[m*es:n], src[m*es:n])
}

// unbitshuffle undoes the bit shuffle with element size es. Only the first
// m8 = m - m%8 elements are transposed (for version < 3 a block whose
// element count is not a multiple of 8 is stored untouched); the rest is
// verbatim. Row r = 8*b + k of the transposed part holds bit k of byte b
// of every element, element i at bit i%8 of the row's byte i/8.
//
// It works in two sequential passes: the bit transpose turns each group of
// 8 rows into byte b of every element (the byte-shuffled layout) in
// scratch, then unshuffle interleaves the bytes into dst. scratch holds at
// least m8*es bytes and shares no storage with src or dst; dst is either
// src itself or disjoint from it.
func unbitshuffle(dst, src []byte, es int, version uint8, scratch []byte) {
	n := len(src)
	m := n / es
	m8 := m - m%8
	if version < 3 && m%8 != 0 {
		m8 = 0
	}
	if m8 == 0 {
		copy(dst, src)
		return
	}
	planes := dst[:m8]
	if es > 1 {
		planes = scratch[:m8*es]
	}
	rowLen := m8 / 8
	for b := 0; b < es; b++ {
		rows := src[8*b*rowLen : 8*(b+1)*rowLen]
		plane := planes[b*m8 : (b+1)*m8]
		j := bitTransposeSIMD(plane, rows, rowLen)
		// Eight groups at a time: the 8 rows' next 8 bytes hold bit k
		// (row k) of byte b of 64 elements; transposing the bits in each
		// byte lane gives words whose lane g is element 8g+i's byte b
		// (word i), and transposing those bytes puts the 64 elements'
		// byte b in order.
		for ; j+8 <= rowLen; j += 8 {
			x0, x1, x2, x3, x4, x5, x6, x7 := transposeBitLanes(load8(rows, j, rowLen))
			x0, x1, x2, x3, x4, x5, x6, x7 = transposeBytes8(x0, x1, x2, x3, x4, x5, x6, x7)
			put8(plane[8*j:], x0, x1, x2, x3, x4, x5, x6, x7)
		}
		for ; j < rowLen; j++ {
			var v uint64
			for k := 7; k >= 0; k-- {
				v = v<<8 | uint64(rows[k*rowLen+j])
			}
			if v != 0 {
				v = transpose8(v)
			}
			binary.LittleEndian.PutUint64(plane[8*j:], v)
		}
	}
	if es > 1 {
		unshuffle(dst[:m8*es], planes, es)
	}
	copy(dst[m8*es:n], src[m8*es:n])
}

// transpose8 transposes the 8x8 bit matrix whose row r is byte r of x and
// whose column c is bit c of each byte.
func transpose8(x uint64) uint64 {
	t := (x ^ (x >> 7)) & 0x00AA00AA00AA00AA
	x ^= t ^ (t << 7)
	t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCC
	x ^= t ^ (t << 14)
	t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0
	x ^= t ^ (t << 28)
	return x
}

// deltaUnit is the XOR unit width of the delta filter for a typesize.
func deltaUnit(typesize int) int {
	switch {
	case typesize == 1, typesize == 2, typesize == 4, typesize == 8:
		return typesize
	case typesize%8 == 0:
		return 8
	}
	return 1
}

// undelta undoes the delta filter in place on buf. For block 0 (ref nil)
// each byte from position w on is XORed with the restored byte w earlier
// (a running XOR of w-byte units); for other blocks each byte is XORed
// with the same byte of the restored block 0 (ref). Bytes after the last
// whole unit are left alone.
func undelta(buf, ref []byte, w int) {
	end := len(buf) / w * w
	if ref == nil {
		i := w
		if 8%w == 0 {
			words := end / 8 * 8
			prefixXor(buf[:words], w)
			i = max(w, words)
		}
		for ; i < end; i++ {
			buf[i] ^= buf[i-w]
		}
		return
	}
	end = min(end, len(ref)/w*w)
	xorInto(buf[:end], ref[:end])
}

// unbytedelta undoes bytedelta in place: buf is es streams of n/es bytes,
// each restored by a running sum mod 256 starting from 0; the bytes after
// es*(n/es) are verbatim.
func unbytedelta(buf []byte, es int) {
	m := len(buf) / es
	for s := 0; s < es; s++ {
		prefixSumBytes(buf[s*m : s*m+m])
	}
}
