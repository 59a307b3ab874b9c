package b2nd

import (
	"fmt"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/codec/blosc"
)

// ReadChunkBox decodes only the blocks of chunk id that hold elements of
// the chunk-local box [lo, hi) (see array.BoxReader): a point or a thin
// slab of a large chunk touches a few of its blocks. It decodes the whole
// chunk instead when that is as cheap: the box touches at least half the
// blocks, the chunk is one block, or it is special or stored verbatim.
func (a *Array) ReadChunkBox(id int64, lo, hi []int64, dst []byte) ([]byte, int64, bool, error) {
	f := a.src.frame
	whole := func() ([]byte, int64, bool, error) {
		b, err := a.ReadChunk(id, dst)
		return b, int64(len(b)), false, err
	}
	if id < 0 || id >= int64(len(f.Chunks)) || len(lo) != a.info.Rank() || len(hi) != len(lo) {
		return whole() // the error ReadChunk gives for a bad id
	}
	var start, extent [array.MaxRank]int64
	r := len(lo)
	n := a.info.ChunkBox(id, start[:r], extent[:r]) * f.Typesize
	var blo, bhi [array.MaxRank]int64 // block grid range the box touches
	need := int64(1)
	for d := range r {
		if lo[d] < 0 || hi[d] > extent[d] || lo[d] >= hi[d] {
			return nil, 0, false, fmt.Errorf("b2nd: %s: chunk %d: box [%v, %v) outside the chunk's extent %v: %w", a.info.Name, id, lo, hi, extent[:r], array.ErrCorrupt)
		}
		blo[d], bhi[d] = lo[d]/a.geo.block[d], (hi[d]-1)/a.geo.block[d]+1
		need *= bhi[d] - blo[d]
	}
	total := f.ChunkSize / a.geo.blockBytes
	if f.Chunks[id].Kind != blosc.ChunkStored || a.kinds[id] == kindMemcpy || 2*need >= total {
		return whole()
	}
	if a.src.mf.Released() {
		return nil, 0, false, fmt.Errorf("b2nd: %s: %w", a.src.path, array.ErrClosed)
	}
	out := dst[:0]
	if int64(cap(dst)) < n {
		out = make([]byte, n)
	}
	out = out[:n]
	decoded := need * a.geo.blockBytes
	err := a.withStored(id, func(src []byte) (err error) {
		decoded, err = a.decodeBlocks(out, src, extent[:r], blo[:r], bhi[:r], decoded)
		return err
	})
	if err != nil {
		return nil, 0, false, fmt.Errorf("b2nd: %s: chunk %d: %w", a.info.Name, id, err)
	}
	return out, decoded, decoded < f.ChunkSize, nil
}

// kindMemcpy is chunkKinds' index of "blosc2/memcpy".
var kindMemcpy = kindIndex["/memcpy"]

// decodeBlocks decodes the blocks [blo, bhi) of the block grid from src,
// one at a time, and copies each block's valid elements into out. It
// returns the bytes decoded: want, or the whole chunk for a chunk that
// its header says is special (filled whole, as ReadChunk does).
func (a *Array) decodeBlocks(out, src []byte, extent, blo, bhi []int64, want int64) (int64, error) {
	f := a.src.frame
	h, err := a.header(src)
	if err != nil {
		return 0, err
	}
	if h.Special != blosc.SpecialNone {
		return f.ChunkSize, a.decodeStored(out, int64(len(out)), src, extent)
	}
	bp := a.blocks.Get().(*[]byte)
	defer a.blocks.Put(bp)
	bb := a.geo.blockBytes
	buf, block0 := (*bp)[:bb], []byte(nil)
	if h.NeedsBlock0() {
		block0 = (*bp)[bb : 2*bb]
		if err := blosc.DecodeBlock(block0, src, 0, nil); err != nil {
			return 0, wrapCodec(err)
		}
	}
	g := &a.geo
	r := len(extent)
	var bidx, origin, valid, e, outStride, blkStride [array.MaxRank]int64
	os, bs := int64(1), int64(1)
	for d := r - 1; d >= 0; d-- {
		outStride[d], blkStride[d] = os, bs
		os *= extent[d]
		bs *= g.block[d]
	}
	copy(bidx[:r], blo)
	for {
		j := int64(0)
		skip := false
		for d := range r {
			j = j*g.bgrid[d] + bidx[d]
			origin[d] = bidx[d] * g.block[d]
			valid[d] = min(g.block[d], extent[d]-origin[d])
			skip = skip || valid[d] <= 0
		}
		if !skip {
			if err := blosc.DecodeBlock(buf, src, int(j), block0); err != nil {
				return 0, wrapCodec(err)
			}
			if f.BigEndian {
				swapBytes(buf, f.Typesize)
			}
			g.copyBlock(out, buf, extent, origin[:r], valid[:r], outStride[:r], blkStride[:r], e[:r])
		}
		d := r - 1
		for ; d >= 0; d-- {
			if bidx[d]++; bidx[d] < bhi[d] {
				break
			}
			bidx[d] = blo[d]
		}
		if d < 0 {
			return want, nil
		}
	}
}
