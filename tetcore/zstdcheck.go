package tetcore

import (
	"fmt"

	"github.com/klauspost/compress/zstd"
)

// maxBlock is the largest decoded size of one zstd block.
const maxBlock = 128 << 10

// maxUndeclaredWindow is the largest window accepted from a frame that
// does not declare its content size, unless the chunk is larger: 128 MiB,
// the zstd tool's --long default. Larger windows only come from
// hand-built frames.
const maxUndeclaredWindow = 128 << 20

// checkFrame checks what the zstd frame src can decode to against the
// chunk's raw_byte_len before any buffer of that size is allocated: a
// few bytes of payload must not make a reader allocate raw_byte_len (up
// to max_chunk_bytes) only to find that they decode to much less. It
// refuses a frame that declares another content size, declares no size
// and a window larger than the chunk (and maxUndeclaredWindow), or whose
// blocks cannot add up to raw_byte_len: raw and RLE blocks give their
// exact size, a compressed block at most 128 KiB. It reads only the
// frame header and the 3-byte block headers.
func checkFrame(src []byte, rawLen int64) error {
	var h zstd.Header
	if err := h.Decode(src); err != nil {
		return fmt.Errorf("zstd frame header: %v", err)
	}
	if h.Skippable {
		return fmt.Errorf("skippable frame where a zstd frame was expected")
	}
	want := uint64(rawLen)
	if h.HasFCS && h.FrameContentSize != want {
		return fmt.Errorf("frame declares %d bytes, raw_byte_len is %d", h.FrameContentSize, rawLen)
	}
	if !h.HasFCS && h.WindowSize > max(want, maxUndeclaredWindow) {
		return fmt.Errorf("frame declares no content size and a %d-byte window, raw_byte_len is %d", h.WindowSize, rawLen)
	}
	blockMax := uint64(maxBlock)
	if h.WindowSize > 0 {
		blockMax = min(blockMax, h.WindowSize)
	}
	var most uint64
	p := h.HeaderSize
	for {
		if p+3 > len(src) {
			return fmt.Errorf("frame cut short after %d bytes", len(src))
		}
		b := uint32(src[p]) | uint32(src[p+1])<<8 | uint32(src[p+2])<<16
		last, typ, size := b&1 == 1, (b>>1)&3, uint64(b>>3)
		p += 3
		switch typ {
		case 0: // raw
			most += size
			p += int(size)
		case 1: // RLE: one byte repeated size times
			most += size
			p++
		case 2: // compressed
			most += blockMax
			p += int(size)
		default:
			return fmt.Errorf("reserved zstd block type")
		}
		if p > len(src) {
			return fmt.Errorf("frame cut short after %d bytes", len(src))
		}
		if last {
			break
		}
	}
	if most < want {
		return fmt.Errorf("frame decodes to at most %d bytes, raw_byte_len is %d", most, rawLen)
	}
	return nil
}
