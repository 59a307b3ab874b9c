package array

// ExtractChunk copies the elements of a chunk out of a whole row-major
// array of the given shape. start and extent give the chunk's box (see
// Info.ChunkBox); size is the element size. It appends to dst and
// returns the result.
func ExtractChunk(dst, full []byte, shape, start, extent []int64, size int) []byte {
	r := len(shape)
	if r == 0 {
		return append(dst, full[:size]...) // a 0-d array: its one element
	}
	// stride[a] = elements per step along axis a in the full array.
	var stride [MaxRank]int64
	s := int64(1)
	for a := r - 1; a >= 0; a-- {
		stride[a] = s
		s *= shape[a]
	}
	var idx [MaxRank]int64 // position inside the chunk, axes 0..r-2
	run := int(extent[r-1]) * size
	for {
		off := int64(0)
		for a := 0; a < r; a++ {
			off += (start[a] + idx[a]) * stride[a]
		}
		b := int(off) * size
		dst = append(dst, full[b:b+run]...)
		a := r - 2
		for ; a >= 0; a-- {
			idx[a]++
			if idx[a] < extent[a] {
				break
			}
			idx[a] = 0
		}
		if a < 0 {
			return dst
		}
	}
}
