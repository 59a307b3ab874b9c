package blosc

import (
	"encoding/binary"
	"fmt"
)

// Decode decompresses the chunk in src into dst, which must be exactly
// Header.NBytes long. It never writes outside dst, never allocates more
// than O(block size) besides, and fails with an error (never a panic) on
// malformed input. src may be longer than the chunk.
func Decode(dst, src []byte) error {
	h, err := ParseHeader(src)
	if err != nil {
		return err
	}
	if int64(len(dst)) != h.NBytes {
		return fmt.Errorf("blosc: output buffer of %d bytes for a chunk of %d: %w", len(dst), h.NBytes, ErrCorrupt)
	}
	src = src[:h.CBytes]
	switch h.Special {
	case SpecialZeros, SpecialUninit:
		clear(dst)
		return nil
	case SpecialNaN:
		fillNaN(dst, h.TypeSize)
		return nil
	case SpecialValue:
		fillPattern(dst, src[h.HeaderSize:])
		return nil
	}
	if h.Memcpyed {
		copy(dst, src[h.HeaderSize:])
		return nil
	}
	if h.NBytes == 0 {
		return nil
	}
	return decodeBlocks(&h, dst, src)
}

// FillNaN fills dst with little-endian quiet NaNs of width ts (4 or 8)
// as a NaN special chunk decodes; a tail shorter than ts gets the NaN's
// first bytes.
func FillNaN(dst []byte, ts int) { fillNaN(dst, ts) }

// fillNaN is FillNaN.
func fillNaN(dst []byte, ts int) {
	var v [8]byte
	if ts == 4 {
		binary.LittleEndian.PutUint32(v[:], 0x7fc00000)
	} else {
		binary.LittleEndian.PutUint64(v[:], 0x7ff8000000000000)
	}
	fillPattern(dst, v[:ts])
}

// fillPattern repeats pat over dst.
func fillPattern(dst, pat []byte) {
	if len(dst) == 0 {
		return
	}
	n := copy(dst, pat)
	for n < len(dst) {
		n += copy(dst[n:], dst[:n])
	}
}

// decodeBlocks decodes a regular chunk: block starts, an optional
// dictionary, then per block its streams and the filter pipeline.
func decodeBlocks(h *Header, dst, src []byte) error {
	c, err := openBlocks(h, src)
	if err != nil {
		return err
	}
	defer c.close()
	bs := h.BlockSize
	block0 := dst[:min(bs, h.NBytes)]
	for j := int64(0); j < c.nblocks; j++ {
		off := j * bs
		// The capacity up to the end of dst lets a stream decoder use
		// the blocks not yet decoded as slack (see zstdSlack); it never
		// reaches past dst.
		if err := c.block(j, dst[off:off+min(bs, h.NBytes-off):len(dst)], block0); err != nil {
			return err
		}
	}
	return nil
}

// blockReader reads the blocks of one regular chunk.
type blockReader struct {
	h         *Header
	src       []byte // the chunk, exactly cbytes long
	nblocks   int64
	dataStart int64 // first byte after the block starts and dictionary
	sd        *streamDecoder
	p         *pipeline
}

// openBlocks checks a regular chunk's codec, filters, block starts and
// dictionary and prepares its decoders. The caller calls c.close.
func openBlocks(h *Header, src []byte) (*blockReader, error) {
	codec, err := resolveCodec(h)
	if err != nil {
		return nil, err
	}
	if err := checkFilters(h); err != nil {
		return nil, err
	}
	bs := h.BlockSize
	nblocks := (h.NBytes + bs - 1) / bs
	cb := int64(len(src))
	hs := int64(h.HeaderSize)
	if nblocks > (cb-hs)/4 {
		return nil, fmt.Errorf("%w: %d block starts do not fit in %d bytes", ErrCorrupt, nblocks, cb)
	}
	dataStart := hs + 4*nblocks
	var dict []byte
	if h.Dict {
		if dataStart+4 > cb {
			return nil, fmt.Errorf("%w: dictionary size past the chunk", ErrCorrupt)
		}
		dsize := int64(int32(binary.LittleEndian.Uint32(src[dataStart:])))
		if dsize < 0 || dsize > cb-dataStart-4 {
			return nil, fmt.Errorf("%w: dictionary of %d bytes past the chunk", ErrCorrupt, dsize)
		}
		dict = src[dataStart+4 : dataStart+4+dsize]
		dataStart += 4 + dsize
	}
	sd, err := newStreamDecoder(codec, dict)
	if err != nil {
		return nil, err
	}
	return &blockReader{h: h, src: src, nblocks: nblocks, dataStart: dataStart, sd: sd,
		p: newPipeline(h, int(bs))}, nil
}

// close releases the decoders and scratch buffers.
func (c *blockReader) close() {
	c.sd.close()
	c.p.release()
}

// block decodes block j into out (exactly that block's size; any capacity
// past it may be overwritten with scratch bytes). block0 is
// the restored block 0, which the delta filter of later blocks reads; for
// j == 0 it is out itself or unused.
func (c *blockReader) block(j int64, out, block0 []byte) error {
	hs := int64(c.h.HeaderSize)
	start := int64(int32(binary.LittleEndian.Uint32(c.src[hs+4*j:])))
	if start < c.dataStart || start >= int64(len(c.src)) {
		return fmt.Errorf("%w: block %d starts at %d, outside [%d, %d)", ErrCorrupt, j, start, c.dataStart, len(c.src))
	}
	n := int64(len(out))
	buf := c.p.target(out, int(n))
	if err := decodeStreams(c.h, c.sd, c.src, start, buf, n < c.h.BlockSize); err != nil {
		return fmt.Errorf("block %d: %w", j, err)
	}
	if c.p.active {
		c.p.undo(out, buf, block0, j == 0)
	}
	return nil
}

// decodeStreams decodes the streams of one block, starting at pos in src,
// into out (the whole block, still filtered). Bytes in out's capacity past
// its length may be overwritten.
func decodeStreams(h *Header, sd *streamDecoder, src []byte, pos int64, out []byte, leftover bool) error {
	nstreams := 1
	if !h.DontSplit && !leftover {
		nstreams = h.TypeSize
	}
	if len(out)%nstreams != 0 {
		return fmt.Errorf("%w: block of %d bytes in %d streams", ErrCorrupt, len(out), nstreams)
	}
	neblock := len(out) / nstreams
	cb := int64(len(src))
	for s := 0; s < nstreams; s++ {
		dest := out[s*neblock : (s+1)*neblock]
		if pos+4 > cb {
			return fmt.Errorf("%w: stream %d size past the chunk", ErrCorrupt, s)
		}
		csize := int64(int32(binary.LittleEndian.Uint32(src[pos:])))
		pos += 4
		switch {
		case csize == 0:
			clear(dest)
		case csize < 0:
			if csize < -255 || pos >= cb {
				return fmt.Errorf("%w: stream %d: bad run of %d", ErrCorrupt, s, csize)
			}
			if src[pos]&1 == 0 {
				return fmt.Errorf("%w: stream %d: run token %#x", ErrUnsupported, s, src[pos])
			}
			pos++
			fillPattern(dest, []byte{byte(-csize)})
		case csize > cb-pos:
			return fmt.Errorf("%w: stream %d of %d bytes past the chunk", ErrCorrupt, s, csize)
		case csize == int64(neblock):
			copy(dest, src[pos:pos+csize])
			pos += csize
		default:
			if err := sd.decode(src[pos:pos+csize], dest); err != nil {
				return fmt.Errorf("stream %d: %w", s, err)
			}
			pos += csize
		}
	}
	return nil
}
