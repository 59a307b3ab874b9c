package b2nd

import (
	"encoding/binary"
	"math/bits"

	"github.com/tetsql/tetsql/array"
)

// geometry is what moving a decoded chunk's elements into array order
// needs. Inside a decoded chunk, blocks follow one another in row-major
// order of the block grid and elements are row-major inside their block
// (see Layout.Locate); the array wants them row-major over the chunk's
// edge-trimmed box.
type geometry struct {
	ts         int64   // bytes per element
	chunk      []int64 // chunk shape
	block      []int64 // block shape
	bgrid      []int64 // blocks per axis of a chunk
	blockBytes int64   // bytes per block, padding included
}

func newGeometry(l *Layout, ts int64) geometry {
	g := geometry{ts: ts, chunk: l.ChunkShape, block: l.BlockShape, bgrid: make([]int64, len(l.ChunkShape))}
	g.blockBytes = ts
	for d := range g.chunk {
		g.bgrid[d] = ceilDiv(g.chunk[d], g.block[d])
		g.blockBytes *= g.block[d]
	}
	return g
}

// inOrder reports whether a decoded chunk whose box has this extent
// starts with the box's elements in array order: every block spans the
// chunk along all axes but the first, and the box spans the chunk along
// them too. Blocks then follow one another down the first axis, so the
// box is the decoded chunk's first bytes (the rest is padding along the
// first axis, and padding blocks). Blosc2's default blocks for a large
// chunk are often of this kind (a few rows of the first axis).
func (g *geometry) inOrder(extent []int64) bool {
	for d := 1; d < len(extent); d++ {
		if g.block[d] != g.chunk[d] || extent[d] != g.chunk[d] {
			return false
		}
	}
	return true
}

// reorder copies the elements of dec, a decoded chunk, that lie inside a
// box of the given extent into out (row-major over extent), block by
// block. Runs are as long as the layouts allow: along the last axis, and
// across trailing axes that a block covers entirely in both layouts.
func (g *geometry) reorder(out, dec []byte, extent []int64) {
	r := len(extent)
	if r == 0 {
		copy(out, dec) // a 0-d array: one element
		return
	}
	var bidx, origin, valid, e [array.MaxRank]int64
	// outStride and blkStride are the element strides per axis in the
	// box and in a block.
	var outStride, blkStride [array.MaxRank]int64
	os, bs := int64(1), int64(1)
	for d := r - 1; d >= 0; d-- {
		outStride[d], blkStride[d] = os, bs
		os *= extent[d]
		bs *= g.block[d]
	}
	for b := int64(0); ; b++ {
		skip := false
		for d := range r {
			origin[d] = bidx[d] * g.block[d]
			valid[d] = min(g.block[d], extent[d]-origin[d])
			skip = skip || valid[d] <= 0
		}
		if !skip {
			g.copyBlock(out, dec[b*g.blockBytes:(b+1)*g.blockBytes], extent, origin[:r], valid[:r], outStride[:r], blkStride[:r], e[:r])
		}
		// next block, row-major over the block grid
		d := r - 1
		for ; d >= 0; d-- {
			if bidx[d]++; bidx[d] < g.bgrid[d] {
				break
			}
			bidx[d] = 0
		}
		if d < 0 {
			return
		}
	}
}

// copyBlock copies the valid part of one block (blk) to its place in out.
// e is scratch of length rank.
func (g *geometry) copyBlock(out, blk []byte, extent, origin, valid, outStride, blkStride, e []int64) {
	r := len(extent)
	// k is the first axis of the runs: every axis after it is whole in
	// both the block and the box, so rows along them are contiguous.
	k := r - 1
	for k > 0 && valid[k] == g.block[k] && valid[k] == extent[k] {
		k--
	}
	run := valid[k] * blkStride[k] * g.ts
	clear(e)
	for {
		var oi, bi int64
		for d := range r {
			oi += (origin[d] + e[d]) * outStride[d]
			bi += e[d] * blkStride[d]
		}
		copy(out[oi*g.ts:oi*g.ts+run], blk[bi*g.ts:bi*g.ts+run])
		d := k - 1
		for ; d >= 0; d-- {
			if e[d]++; e[d] < valid[d] {
				break
			}
			e[d] = 0
		}
		if d < 0 {
			return
		}
	}
}

// swapBytes turns big-endian elements of width ts in b into
// little-endian, in place.
func swapBytes(b []byte, ts int64) {
	switch ts {
	case 2:
		for i := 0; i+2 <= len(b); i += 2 {
			binary.LittleEndian.PutUint16(b[i:], bits.ReverseBytes16(binary.LittleEndian.Uint16(b[i:])))
		}
	case 4:
		for i := 0; i+4 <= len(b); i += 4 {
			binary.LittleEndian.PutUint32(b[i:], bits.ReverseBytes32(binary.LittleEndian.Uint32(b[i:])))
		}
	case 8:
		for i := 0; i+8 <= len(b); i += 8 {
			binary.LittleEndian.PutUint64(b[i:], bits.ReverseBytes64(binary.LittleEndian.Uint64(b[i:])))
		}
	}
}
