package blosc

import (
	"fmt"
	"slices"
)

// NBlocks is the number of blocks of a chunk, ceil(NBytes / BlockSize);
// 0 when BlockSize is not positive.
func (h Header) NBlocks() int {
	if h.BlockSize <= 0 {
		return 0
	}
	return int((h.NBytes + h.BlockSize - 1) / h.BlockSize)
}

// DecodeBlock decodes only block j of the chunk in src into dst, which must
// be exactly that block's size: BlockSize, or what is left of NBytes for
// the last block. Block j covers bytes [j·BlockSize, j·BlockSize+len(dst))
// of the decoded chunk, so a reader can skip the blocks a selection does
// not touch. A chunk whose filters include delta needs the restored block
// 0 for any later block: pass it as block0 (nil for j == 0, or when the
// chunk has no delta; an error says when it is missing). Special and
// memcpyed chunks are served without decompression.
func DecodeBlock(dst, src []byte, j int, block0 []byte) error {
	h, err := ParseHeader(src)
	if err != nil {
		return err
	}
	nb := h.NBlocks()
	if h.BlockSize > h.NBytes || h.BlockSize > maxBlockSize || j < 0 || j >= nb {
		return fmt.Errorf("%w: block %d of a chunk of %d bytes in blocks of %d", ErrCorrupt, j, h.NBytes, h.BlockSize)
	}
	off := int64(j) * h.BlockSize
	n := min(h.BlockSize, h.NBytes-off)
	if int64(len(dst)) != n {
		return fmt.Errorf("blosc: output buffer of %d bytes for block %d of %d: %w", len(dst), j, n, ErrCorrupt)
	}
	src = src[:h.CBytes]
	switch h.Special {
	case SpecialZeros, SpecialUninit:
		clear(dst)
		return nil
	case SpecialNaN, SpecialValue:
		// Fill as if the whole chunk were filled, so the pattern's phase
		// is right even when the block size is not a multiple of it.
		var pat []byte
		if h.Special == SpecialValue {
			pat = src[h.HeaderSize:]
		} else {
			pat = make([]byte, h.TypeSize)
			fillNaN(pat, h.TypeSize)
		}
		ph := int(off % int64(len(pat)))
		fillPattern(dst, append(slices.Clone(pat[ph:]), pat[:ph]...))
		return nil
	}
	if h.Memcpyed {
		copy(dst, src[int64(h.HeaderSize)+off:])
		return nil
	}
	c, err := openBlocks(&h, src)
	if err != nil {
		return err
	}
	defer c.close()
	if j > 0 && slices.Contains(h.Filters[:], filterDelta) {
		if int64(len(block0)) != min(h.BlockSize, h.NBytes) {
			return fmt.Errorf("%w: block %d of a delta-filtered chunk needs the %d-byte block 0, got %d bytes",
				ErrCorrupt, j, min(h.BlockSize, h.NBytes), len(block0))
		}
	}
	dst = dst[:n:n] // the caller's bytes past the block are not scratch
	if j == 0 {
		block0 = dst
	}
	return c.block(int64(j), dst, block0)
}
