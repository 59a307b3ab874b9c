package tetcore

import "fmt"

// ExtractChunk copies the elements of a chunk out of a whole row-major
// array of the given shape. start and extent give the chunk's box (see
// Dataset.ChunkStart); size is the element size. It appends to dst and
// returns the result.
func ExtractChunk(dst, full []byte, shape, start, extent []int64, size int) []byte {
	r := len(shape)
	// stride[a] = elements per step along axis a in the full array.
	var stride [maxRank]int64
	s := int64(1)
	for a := r - 1; a >= 0; a-- {
		stride[a] = s
		s *= shape[a]
	}
	var idx [maxRank]int64 // position inside the chunk, axes 0..r-2
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

// WriteDataset writes every chunk of the next dataset from data, the
// whole array row-major. The dataset's chunks must not have been started.
func (w *Writer) WriteDataset(data []byte) error {
	w.skipEmpty()
	if w.cur >= len(w.datasets) {
		return fmt.Errorf("tetcore: WriteDataset: no dataset left to write")
	}
	if w.curLinear != 0 {
		return fmt.Errorf("tetcore: WriteDataset: dataset %q already partly written", w.datasets[w.cur].Name)
	}
	ds := w.datasets[w.cur]
	want := ds.elements * int64(ds.DType.Size())
	if int64(len(data)) != want {
		return fmt.Errorf("tetcore: WriteDataset %q: got %d bytes, want %d", ds.Name, len(data), want)
	}
	id := w.cur
	var buf []byte
	for {
		d, _, start, extent, ok := w.NextChunk()
		if !ok || d != id {
			return nil
		}
		buf = ExtractChunk(buf[:0], data, ds.Shape, start, extent, ds.DType.Size())
		if err := w.WriteChunk(buf); err != nil {
			return err
		}
	}
}
