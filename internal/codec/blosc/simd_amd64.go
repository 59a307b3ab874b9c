//go:build amd64 && !purego

package blosc

// The SSE2 kernels: the unshuffles of unshuffle_amd64.s, the byte prefix
// sum of prefix_amd64.s and the bit transpose of bitshuffle_amd64.s. Each undoes the shuffle of
// the first groups*16 elements (groups*8 for unshuffle8SSE2) of a block
// of m elements; the caller has checked that they lie inside dst and src.

//go:noescape
func unshuffle2SSE2(dst, src *byte, m, groups int)

//go:noescape
func unshuffle4SSE2(dst, src *byte, m, groups int)

//go:noescape
func unshuffle8SSE2(dst, src *byte, m, groups int)

// unshuffleSIMD undoes the shuffle of a leading part of the m es-byte
// elements of src into dst and returns how many elements it did (0 when
// it has no kernel for es); the word kernels do the rest.
func unshuffleSIMD(dst, src []byte, m, es int) int {
	if len(src) < es*m || len(dst) < es*m {
		// The kernels take pointers, so the bounds are checked here;
		// unshuffle never passes shorter slices.
		return 0
	}
	switch es {
	case 2:
		if g := m / 16; g > 0 {
			unshuffle2SSE2(&dst[0], &src[0], m, g)
			return 16 * g
		}
	case 4:
		if g := m / 16; g > 0 {
			unshuffle4SSE2(&dst[0], &src[0], m, g)
			return 16 * g
		}
	case 8:
		if g := m / 8; g > 0 {
			unshuffle8SSE2(&dst[0], &src[0], m, g)
			return 8 * g
		}
	}
	return 0
}

//go:noescape
func prefixSumSSE2(p *byte, groups int) uint64

// prefixSumSIMD replaces the leading multiple of 16 bytes of row by their
// running sum mod 256 and returns how many bytes it did and the last sum.
func prefixSumSIMD(row []byte) (int, byte) {
	g := len(row) / 16
	if g == 0 {
		return 0, 0
	}
	return 16 * g, byte(prefixSumSSE2(&row[0], g))
}

//go:noescape
func bitTransposeSSE2(dst, src *byte, rowLen, groups int)

// bitTransposeSIMD does the bit transpose of one byte plane of the bit
// unshuffle (see unbitshuffle) for the leading multiple of 16 bytes of
// each of the 8 rows in rows (rowLen bytes each) into plane, and returns
// how many row bytes it did.
func bitTransposeSIMD(plane, rows []byte, rowLen int) int {
	g := rowLen / 16
	if g == 0 || len(rows) < 8*rowLen || len(plane) < 8*rowLen {
		return 0
	}
	bitTransposeSSE2(&plane[0], &rows[0], rowLen, g)
	return 16 * g
}
