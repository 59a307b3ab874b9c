package b2nd

import (
	"fmt"

	"github.com/tetsql/tetsql/array"
)

// ChunkGrid returns the number of chunks along each axis:
// ceil(shape[d] / chunkshape[d]).
func (l *Layout) ChunkGrid() []int64 {
	g := make([]int64, len(l.Shape))
	for d := range g {
		g[d] = ceilDiv(l.Shape[d], l.ChunkShape[d])
	}
	return g
}

// Locate maps a logical index (one coordinate per axis) to the chunk that
// holds it (row-major in the chunk grid) and the element's position inside
// the decoded chunk. Inside a chunk, blocks are laid out one after the
// other in row-major order of the block grid, and elements row-major
// inside their block; the block grid of every chunk covers chunkshape
// rounded up to whole blocks, so the last block along an axis may hold
// padding. Multiply the element position by the typesize for a byte
// offset.
func (l *Layout) Locate(index []int64) (chunk int64, element int64, err error) {
	if len(index) != len(l.Shape) {
		return 0, 0, fmt.Errorf("b2nd: index of %d axes for rank %d: %w", len(index), len(l.Shape), array.ErrCorrupt)
	}
	var blk, inBlock, blockElems int64 = 0, 0, 1
	for d, x := range index {
		if x < 0 || x >= l.Shape[d] {
			return 0, 0, fmt.Errorf("b2nd: index %d outside axis %d of size %d: %w", x, d, l.Shape[d], array.ErrCorrupt)
		}
		c, b := l.ChunkShape[d], l.BlockShape[d]
		r := x % c
		chunk = chunk*ceilDiv(l.Shape[d], c) + x/c
		blk = blk*ceilDiv(c, b) + r/b
		inBlock = inBlock*b + r%b
		blockElems *= b
	}
	return chunk, blk*blockElems + inBlock, nil
}
