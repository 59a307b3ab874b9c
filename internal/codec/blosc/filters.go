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
	part := dst[:m8*es]
	clear(part)
	for b := 0; b < es; b++ {
		for k := 0; k < 8; k++ {
			row := src[(8*b+k)*rowLen : (8*b+k+1)*rowLen]
			for j, v := range row {
				if v == 0 {
					continue
				}
				for t := 0; t < 8; t++ {
					if v&(1<<t) != 0 {
						part[(8*j+t)*es+b] |= 1 << k
					}
				}
			}
		}
	}
	copy(dst[m8*es:n], src[m8*es:n])
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
