package blosc

import (
	"crypto/subtle"
	"encoding/binary"
)

// Word-wide filter kernels. The filters are undone on every block, so they
// run eight bytes at a time in uint64s (SWAR) instead of one byte at a
// time; each kernel equals the byte loop it replaces (filters_test.go
// checks them against the forward transforms and the byte loops).

const (
	lo8  = 0x0101010101010101 // one in every byte lane
	m8x  = 0x00FF00FF00FF00FF // the even bytes
	m16x = 0x0000FFFF0000FFFF // the even 16-bit lanes
)

// swap8 exchanges the odd bytes of a with the even bytes of b: for
// a = a0 a1 a2 ... and b = b0 b1 b2 ... (little-endian byte lanes) it
// returns a0 b0 a2 b2 a4 b4 a6 b6 and a1 b1 a3 b3 a5 b5 a7 b7.
func swap8(a, b uint64) (uint64, uint64) {
	t := (a>>8 ^ b) & m8x
	return a ^ t<<8, b ^ t
}

// swap16 is swap8 for 16-bit lanes.
func swap16(a, b uint64) (uint64, uint64) {
	t := (a>>16 ^ b) & m16x
	return a ^ t<<16, b ^ t
}

// swap32 is swap8 for 32-bit lanes.
func swap32(a, b uint64) (uint64, uint64) {
	t := (a>>32 ^ b) & 0xFFFFFFFF
	return a ^ t<<32, b ^ t
}

// unshuffle2 undoes the shuffle of the m 2-byte elements from element i
// on, 8 at a time: the
// two rows' next 8 bytes are interleaved byte by byte, then the 16-bit
// pairs put back in element order.
func unshuffle2(dst, src []byte, m, i int) {
	r0, r1 := src[:m], src[m:2*m]
	for ; i+8 <= m; i += 8 {
		a, b := swap8(binary.LittleEndian.Uint64(r0[i:]), binary.LittleEndian.Uint64(r1[i:]))
		// a holds elements 0 2 4 6, b elements 1 3 5 7.
		a, b = swap16(a, b) // a: 0 1 4 5, b: 2 3 6 7
		a, b = swap32(a, b) // a: 0 1 2 3, b: 4 5 6 7
		d := dst[2*i : 2*i+16]
		binary.LittleEndian.PutUint64(d, a)
		binary.LittleEndian.PutUint64(d[8:], b)
	}
	for ; i < m; i++ {
		dst[2*i], dst[2*i+1] = r0[i], r1[i]
	}
}

// unshuffle4 undoes the shuffle of the m 4-byte elements from element i
// on, 8 at a time: the
// 4x8 byte matrix of the rows' next 8 bytes is transposed by swapping
// bytes, then 16-bit pairs, between rows.
func unshuffle4(dst, src []byte, m, i int) {
	r0, r1, r2, r3 := src[:m], src[m:2*m], src[2*m:3*m], src[3*m:4*m]
	for ; i+8 <= m; i += 8 {
		a, b := swap8(binary.LittleEndian.Uint64(r0[i:]), binary.LittleEndian.Uint64(r1[i:]))
		c, e := swap8(binary.LittleEndian.Uint64(r2[i:]), binary.LittleEndian.Uint64(r3[i:]))
		a, c = swap16(a, c) // a: elements 0 4, c: 2 6
		b, e = swap16(b, e) // b: 1 5, e: 3 7
		d := dst[4*i : 4*i+32]
		binary.LittleEndian.PutUint64(d, a&0xFFFFFFFF|b<<32)
		binary.LittleEndian.PutUint64(d[8:], c&0xFFFFFFFF|e<<32)
		binary.LittleEndian.PutUint64(d[16:], a>>32|b&^0xFFFFFFFF)
		binary.LittleEndian.PutUint64(d[24:], c>>32|e&^0xFFFFFFFF)
	}
	for ; i < m; i++ {
		dst[4*i], dst[4*i+1], dst[4*i+2], dst[4*i+3] = r0[i], r1[i], r2[i], r3[i]
	}
}

// transposeBytes8 transposes the 8x8 byte matrix whose row r is xr and
// whose column c is byte c (little-endian) of each row, by swapping the
// off-diagonal 4x4, 2x2 and 1x1 blocks.
func transposeBytes8(x0, x1, x2, x3, x4, x5, x6, x7 uint64) (y0, y1, y2, y3, y4, y5, y6, y7 uint64) {
	x0, x4 = swap32(x0, x4)
	x1, x5 = swap32(x1, x5)
	x2, x6 = swap32(x2, x6)
	x3, x7 = swap32(x3, x7)
	x0, x2 = swap16(x0, x2)
	x1, x3 = swap16(x1, x3)
	x4, x6 = swap16(x4, x6)
	x5, x7 = swap16(x5, x7)
	x0, x1 = swap8(x0, x1)
	x2, x3 = swap8(x2, x3)
	x4, x5 = swap8(x4, x5)
	x6, x7 = swap8(x6, x7)
	return x0, x1, x2, x3, x4, x5, x6, x7
}

// swapBits exchanges, in every byte lane, the bits of a whose index has
// bit s set with the bits of b whose index has it clear (mask selects
// the latter): one step of an 8x8 bit transpose done on 8 lanes at once.
func swapBits(a, b uint64, s uint, mask uint64) (uint64, uint64) {
	t := (a>>s ^ b) & mask
	return a ^ t<<s, b ^ t
}

// transposeBitLanes transposes, in each of the 8 byte lanes, the 8x8 bit
// matrix whose row k is that byte of xk and whose column i is bit i.
func transposeBitLanes(x0, x1, x2, x3, x4, x5, x6, x7 uint64) (y0, y1, y2, y3, y4, y5, y6, y7 uint64) {
	const m4, m2, m1 = 0x0F0F0F0F0F0F0F0F, 0x3333333333333333, 0x5555555555555555
	x0, x4 = swapBits(x0, x4, 4, m4)
	x1, x5 = swapBits(x1, x5, 4, m4)
	x2, x6 = swapBits(x2, x6, 4, m4)
	x3, x7 = swapBits(x3, x7, 4, m4)
	x0, x2 = swapBits(x0, x2, 2, m2)
	x1, x3 = swapBits(x1, x3, 2, m2)
	x4, x6 = swapBits(x4, x6, 2, m2)
	x5, x7 = swapBits(x5, x7, 2, m2)
	x0, x1 = swapBits(x0, x1, 1, m1)
	x2, x3 = swapBits(x2, x3, 1, m1)
	x4, x5 = swapBits(x4, x5, 1, m1)
	x6, x7 = swapBits(x6, x7, 1, m1)
	return x0, x1, x2, x3, x4, x5, x6, x7
}

// put8 stores eight words at d[0:64].
func put8(d []byte, x0, x1, x2, x3, x4, x5, x6, x7 uint64) {
	d = d[:64]
	binary.LittleEndian.PutUint64(d[0:], x0)
	binary.LittleEndian.PutUint64(d[8:], x1)
	binary.LittleEndian.PutUint64(d[16:], x2)
	binary.LittleEndian.PutUint64(d[24:], x3)
	binary.LittleEndian.PutUint64(d[32:], x4)
	binary.LittleEndian.PutUint64(d[40:], x5)
	binary.LittleEndian.PutUint64(d[48:], x6)
	binary.LittleEndian.PutUint64(d[56:], x7)
}

// load8 loads the words at src[i], src[i+step], ..., src[i+7*step].
func load8(src []byte, i, step int) (x0, x1, x2, x3, x4, x5, x6, x7 uint64) {
	le := binary.LittleEndian
	return le.Uint64(src[i:]), le.Uint64(src[i+step:]), le.Uint64(src[i+2*step:]), le.Uint64(src[i+3*step:]),
		le.Uint64(src[i+4*step:]), le.Uint64(src[i+5*step:]), le.Uint64(src[i+6*step:]), le.Uint64(src[i+7*step:])
}

// unshuffle8 undoes the shuffle of the m 8-byte elements from element i
// on, 8 at a time: the
// eight rows' next 8 bytes form an 8x8 byte matrix whose transpose is the
// 8 elements.
func unshuffle8(dst, src []byte, m, i int) {
	for ; i+8 <= m; i += 8 {
		x0, x1, x2, x3, x4, x5, x6, x7 := transposeBytes8(load8(src, i, m))
		put8(dst[8*i:], x0, x1, x2, x3, x4, x5, x6, x7)
	}
	for ; i < m; i++ {
		for b := 0; b < 8; b++ {
			dst[8*i+b] = src[b*m+i]
		}
	}
}

// unshuffleAny undoes the shuffle of m es-byte elements element by
// element, so the writes are sequential.
func unshuffleAny(dst, src []byte, m, es int) {
	for i := 0; i < m; i++ {
		d := dst[i*es : i*es+es]
		for b := range d {
			d[b] = src[b*m+i]
		}
	}
}

// prefixSumBytes replaces row by its running sum mod 256, starting from 0:
// the leading bytes with the SIMD kernel where there is one, the rest
// eight bytes at a time. The even and odd bytes of a word are spread to
// 16-bit lanes, where multiplying by lo16 sums every lane into the lanes
// above it without carrying out of them (4*255 < 65536); byte 2i of the
// result is then E[i] + O[i-1] and byte 2i+1 is E[i] + O[i]. The running
// sum acc is carried as one byte, so the loop's dependency chain is a
// single add.
func prefixSumBytes(row []byte) {
	const lo16 = 0x0001000100010001
	i, acc := prefixSumSIMD(row)
	for ; i+8 <= len(row); i += 8 {
		v := binary.LittleEndian.Uint64(row[i:])
		e := (v & m8x) * lo16
		o := (v >> 8 & m8x) * lo16
		next := acc + byte((e+o)>>48)
		e += uint64(acc) * lo16
		v = (e+o<<16)&m8x | (e+o)&m8x<<8
		binary.LittleEndian.PutUint64(row[i:], v)
		acc = next
	}
	for ; i < len(row); i++ {
		acc += row[i]
		row[i] = acc
	}
}

// prefixXor replaces buf (a multiple of 8 bytes long) by the running XOR
// of its w-byte units (w = 1, 2, 4 or 8), eight bytes at a time.
func prefixXor(buf []byte, w int) {
	var acc uint64 // the last restored unit, repeated over the word
	var bc uint64  // multiplier broadcasting one unit over the word
	switch w {
	case 1:
		bc = lo8
	case 2:
		bc = 0x0001000100010001
	case 4:
		bc = 0x0000000100000001
	default:
		bc = 1
	}
	for i := 0; i+8 <= len(buf); i += 8 {
		v := binary.LittleEndian.Uint64(buf[i:])
		for s := 8 * w; s < 64; s *= 2 {
			v ^= v << s
		}
		v ^= acc
		binary.LittleEndian.PutUint64(buf[i:], v)
		acc = (v >> (64 - 8*w)) * bc
	}
}

// xorInto XORs ref into buf (the delta filter of blocks after the first).
func xorInto(buf, ref []byte) {
	subtle.XORBytes(buf, buf, ref)
}
