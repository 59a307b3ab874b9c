// Package blosc decodes Blosc2 chunks: the 16- or 32-byte chunk header,
// special chunks (zeros, NaN, uninitialised, run of one value), memcpyed
// chunks, and regular chunks cut into blocks and streams, with the codecs
// blosclz, lz4 (and lz4hc), zlib and zstd and the filters shuffle,
// bitshuffle, delta, trunc_prec and bytedelta.
//
// It is a reader only. Every size read from a chunk is checked against the
// bytes available before it is used, so malformed input yields an error
// wrapping ErrCorrupt or ErrUnsupported, never a panic, and memory beyond
// the caller's output stays O(block size). Decode and DecodeBlock are safe
// for concurrent use.
//
// It also parses Blosc2 frames, the containers of chunks (super-chunks):
// ParseFrame for a contiguous frame, ParseSparseDir and ParseSparseFrame
// for a sparse one (a directory of chunk files). A Frame gives the header
// sizes, the metalayers, the variable-length metalayers decoded from
// msgpack and where each chunk is; DecodeFrame decodes a whole contiguous
// frame into one buffer. Frame errors wrap ErrCorrupt, ErrTruncated,
// ErrUnsupported or ErrTooLarge (sparse frames' files: also ErrNotRegular,
// ErrChanged or the operating system's error), and every size a frame
// declares is bounded before memory is allocated for it.
//
// The filters are undone with word-wide Go kernels; on amd64 the byte
// unshuffle (element sizes 2, 4, 8), the bit transpose of bitshuffle and
// the prefix sum of bytedelta run SSE2 kernels (every amd64 CPU has SSE2)
// for their leading part. Build with -tags purego to use Go alone.
package blosc

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Sentinel errors of chunk decoding (frame.go adds the frame layer's);
// every error Decode, DecodeBlock and ParseHeader return wraps one.
var (
	// ErrCorrupt reports a chunk (or frame) that does not follow the
	// format.
	ErrCorrupt = errors.New("blosc: corrupt chunk")
	// ErrUnsupported reports valid but unsupported content (a codec,
	// filter or feature this reader does not implement); the message
	// names it.
	ErrUnsupported = errors.New("blosc: unsupported")
)

// Chunk header sizes.
const (
	headerLen    = 16
	extHeaderLen = 32
	// maxBlockSize is the largest block size a reader accepts
	// (BLOSC2_MAXBLOCKSIZE).
	maxBlockSize = 536866816
)

// Flag bits of header byte 2.
const (
	flagShuffle    = 1 << 0
	flagMemcpyed   = 1 << 1
	flagBitshuffle = 1 << 2
	flagDelta      = 1 << 3
	flagDontSplit  = 1 << 4
)

// Special is the kind of a special chunk (bits 4-6 of header byte 31).
type Special uint8

// Special chunk kinds.
const (
	SpecialNone   Special = 0 // a regular or memcpyed chunk
	SpecialZeros  Special = 1 // every byte zero
	SpecialNaN    Special = 2 // every element a quiet NaN (typesize 4 or 8)
	SpecialValue  Special = 3 // one value, stored after the header, repeated
	SpecialUninit Special = 4 // undefined values, decoded as zeros
)

// Codec format codes (bits 5-7 of the flags byte).
const (
	codecBloscLZ = 0
	codecLZ4     = 1 // lz4 and lz4hc share a decoder
	codecZlib    = 3
	codecZstd    = 4
	codecUser    = 6 // the codec is in udcodec
)

// Header is a chunk's header.
type Header struct {
	// Version is the chunk format version (1..6 accepted), VersionLZ the
	// codec format version, Flags the raw flags byte (filters for 16-byte
	// headers, memcpyed, dont_split, codec format in bits 5-7).
	Version, VersionLZ, Flags uint8
	// TypeSize is the element width in bytes (1..255).
	TypeSize int
	// NBytes is the decoded size, BlockSize the uncompressed bytes per
	// block, CBytes the stored size including the header.
	NBytes, BlockSize, CBytes int64
	// HeaderSize is 16 (Blosc1 style) or 32 (extended header).
	HeaderSize int
	// Filters and FiltersMeta are the six filter slots, applied by the
	// writer from slot 0 to 5.
	Filters, FiltersMeta [6]uint8
	// Codec is the codec format code (0 blosclz, 1 lz4/lz4hc, 3 zlib,
	// 4 zstd, 6 user codec); UDCodec the codec id when Codec is 6.
	Codec, UDCodec uint8
	// Memcpyed chunks hold their NBytes verbatim after the header.
	Memcpyed bool
	// DontSplit means one stream per block instead of TypeSize streams.
	DontSplit bool
	// Dict means a dictionary follows the block starts.
	Dict bool
	// Special is the special kind, SpecialNone for data-bearing chunks.
	Special Special
}

// ParseHeader reads and checks a chunk header; src may be longer than the
// chunk. The returned header is consistent: CBytes fits in src, and the
// sizes agree with the chunk kind.
func ParseHeader(src []byte) (Header, error) {
	var h Header
	if len(src) < headerLen {
		return h, fmt.Errorf("%w: %d bytes, shorter than a header", ErrCorrupt, len(src))
	}
	h.Version, h.VersionLZ, h.Flags = src[0], src[1], src[2]
	h.TypeSize = int(src[3])
	h.NBytes = int64(int32(binary.LittleEndian.Uint32(src[4:])))
	h.BlockSize = int64(int32(binary.LittleEndian.Uint32(src[8:])))
	h.CBytes = int64(int32(binary.LittleEndian.Uint32(src[12:])))
	if h.Version == 0 || h.Version >= 7 {
		return h, fmt.Errorf("%w: chunk format version %d", ErrUnsupported, h.Version)
	}
	if h.TypeSize == 0 {
		return h, fmt.Errorf("%w: typesize 0", ErrCorrupt)
	}
	if h.NBytes < 0 || h.CBytes < 0 {
		return h, fmt.Errorf("%w: negative size (nbytes %d, cbytes %d)", ErrCorrupt, h.NBytes, h.CBytes)
	}
	h.Memcpyed = h.Flags&flagMemcpyed != 0
	h.DontSplit = h.Flags&flagDontSplit != 0
	h.Codec = h.Flags >> 5
	h.HeaderSize = headerLen
	if h.Flags&(flagShuffle|flagBitshuffle) == flagShuffle|flagBitshuffle {
		if err := parseExtended(&h, src); err != nil {
			return h, err
		}
	} else {
		// Blosc1-style header: the filters come from the flag bits.
		if h.Flags&flagShuffle != 0 {
			h.Filters[5] = filterShuffle
		}
		if h.Flags&flagBitshuffle != 0 {
			h.Filters[5] = filterBitshuffle
		}
		if h.Flags&flagDelta != 0 {
			h.Filters[4] = filterDelta
		}
	}
	if h.CBytes < int64(h.HeaderSize) {
		return h, fmt.Errorf("%w: cbytes %d smaller than the %d-byte header", ErrCorrupt, h.CBytes, h.HeaderSize)
	}
	if h.CBytes > int64(len(src)) {
		return h, fmt.Errorf("%w: cbytes %d but only %d bytes available", ErrCorrupt, h.CBytes, len(src))
	}
	return h, checkKind(&h)
}

// parseExtended reads bytes 16..31 of an extended header.
func parseExtended(h *Header, src []byte) error {
	if len(src) < extHeaderLen {
		return fmt.Errorf("%w: %d bytes, shorter than an extended header", ErrCorrupt, len(src))
	}
	h.HeaderSize = extHeaderLen
	copy(h.Filters[:], src[16:22])
	h.UDCodec = src[22]
	copy(h.FiltersMeta[:], src[24:30])
	if src[30]&1 != 0 {
		return fmt.Errorf("%w: variable-length blocks", ErrUnsupported)
	}
	f := src[31]
	h.Dict = f&1 != 0
	if f&(1<<3) != 0 {
		return fmt.Errorf("%w: lazy chunk", ErrUnsupported)
	}
	h.Special = Special((f >> 4) & 7)
	return nil
}

// checkKind checks the sizes that depend on the chunk kind.
func checkKind(h *Header) error {
	switch h.Special {
	case SpecialNone:
	case SpecialZeros, SpecialUninit:
		return nil
	case SpecialNaN:
		if h.TypeSize != 4 && h.TypeSize != 8 {
			return fmt.Errorf("%w: NaN chunk with typesize %d", ErrCorrupt, h.TypeSize)
		}
		return nil
	case SpecialValue:
		if h.CBytes-int64(h.HeaderSize) != int64(h.TypeSize) {
			return fmt.Errorf("%w: run-of-value chunk holds %d value bytes for typesize %d",
				ErrCorrupt, h.CBytes-int64(h.HeaderSize), h.TypeSize)
		}
		return nil
	default:
		return fmt.Errorf("%w: special chunk kind %d", ErrUnsupported, h.Special)
	}
	if h.Memcpyed {
		if h.CBytes != h.NBytes+int64(h.HeaderSize) {
			return fmt.Errorf("%w: memcpyed chunk with cbytes %d for nbytes %d",
				ErrCorrupt, h.CBytes, h.NBytes)
		}
		return nil
	}
	if h.NBytes == 0 {
		return nil
	}
	if h.BlockSize <= 0 || h.BlockSize > h.NBytes || h.BlockSize > maxBlockSize {
		return fmt.Errorf("%w: blocksize %d for nbytes %d", ErrCorrupt, h.BlockSize, h.NBytes)
	}
	return nil
}
