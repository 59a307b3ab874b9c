package tetcore

import (
	"fmt"

	"github.com/tetsql/tetsql/array"
)

// ExtractChunk copies the elements of a chunk out of a whole row-major
// array of the given shape (array.ExtractChunk). start and extent give
// the chunk's box (see Dataset.ChunkStart); size is the element size. It
// appends to dst and returns the result.
func ExtractChunk(dst, full []byte, shape, start, extent []int64, size int) []byte {
	return array.ExtractChunk(dst, full, shape, start, extent, size)
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
