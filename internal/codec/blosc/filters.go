package blosc

import "fmt"

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

// unshuffle undoes the byte shuffle with element size es: src holds byte 0
// of every element, then byte 1, ...; the bytes after the last whole
// element are stored as they were.
func unshuffle(dst, src []byte, es int) {
	n := len(src)
	m := n / es
	if es <= 1 || m == 0 {
		copy(dst, src)
		return
	}
	for b := 0; b < es; b++ {
		row := src[b*m : b*m+m]
		for i, v := range row {
			dst[i*es+b] = v
		}
	}
	copy(dst[m*es:n], src[m*es:n])
}

// unbitshuffle undoes the bit shuffle with element size es. Only the first
// m8 = m - m%8 elements are transposed (for version < 3 a block whose
// element count is not a multiple of 8 is stored untouched); the rest is
// verbatim. Row r = 8*b + k of the transposed part holds bit k of byte b
// of every element, element i at bit i%8 of the row's byte i/8.
func unbitshuffle(dst, src []byte, es int, version uint8) {
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
	rowLen := m8 / 8
	// For byte b of every element and each group of 8 elements j, the 8
	// rows' byte j form an 8x8 bit matrix (row k = bit k); its transpose
	// holds the 8 elements' byte b.
	for b := 0; b < es; b++ {
		rows := src[8*b*rowLen : 8*(b+1)*rowLen]
		r0, r1, r2, r3 := rows[:rowLen], rows[rowLen:2*rowLen], rows[2*rowLen:3*rowLen], rows[3*rowLen:4*rowLen]
		r4, r5, r6, r7 := rows[4*rowLen:5*rowLen], rows[5*rowLen:6*rowLen], rows[6*rowLen:7*rowLen], rows[7*rowLen:]
		for j := range r0 {
			x := uint64(r0[j]) | uint64(r1[j])<<8 | uint64(r2[j])<<16 | uint64(r3[j])<<24 |
				uint64(r4[j])<<32 | uint64(r5[j])<<40 | uint64(r6[j])<<48 | uint64(r7[j])<<56
			if x != 0 {
				x = transpose8(x)
			}
			d := dst[8*j*es+b : 8*j*es+b+7*es+1]
			d[0] = byte(x)
			d[es] = byte(x >> 8)
			d[2*es] = byte(x >> 16)
			d[3*es] = byte(x >> 24)
			d[4*es] = byte(x >> 32)
			d[5*es] = byte(x >> 40)
			d[6*es] = byte(x >> 48)
			d[7*es] = byte(x >> 56)
		}
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
// each byte from position w on is XORed with the restored byte w earlier;
// for other blocks each byte is XORed with the same byte of the restored
// block 0 (ref). Bytes after the last whole unit are left alone.
func undelta(buf, ref []byte, w int) {
	end := len(buf) / w * w
	if ref == nil {
		for i := w; i < end; i++ {
			buf[i] ^= buf[i-w]
		}
		return
	}
	end = min(end, len(ref)/w*w)
	for i := 0; i < end; i++ {
		buf[i] ^= ref[i]
	}
}

// unbytedelta undoes bytedelta in place: buf is es streams of n/es bytes,
// each restored by a running sum mod 256 starting from 0; the bytes after
// es*(n/es) are verbatim.
func unbytedelta(buf []byte, es int) {
	m := len(buf) / es
	for s := 0; s < es; s++ {
		var acc byte
		row := buf[s*m : s*m+m]
		for i, v := range row {
			acc += v
			row[i] = acc
		}
	}
}
