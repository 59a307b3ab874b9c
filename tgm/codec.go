package tgm

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
	"github.com/tetsql/tetsql/array"
)

// zstdDecoder is the package's zstd decoder (DecodeAll is safe for
// concurrent use). DecodeAll writes into the caller's buffer and never
// grows it, so a frame cannot inflate past the size the shape allows,
// and no window is allocated from a size the frame declares.
var zstdDecoder = sync.OnceValues(func() (*zstd.Decoder, error) {
	return zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecodeAllCapLimit(true),
		zstd.WithDecoderMaxMemory(zstd.MaxWindowSize))
})

// buffer returns dst resliced to n bytes when its capacity allows, else a
// new buffer of n bytes.
func buffer(dst []byte, n int64) []byte {
	if int64(cap(dst)) >= n {
		return dst[:n]
	}
	return make([]byte, n)
}

// decompress undoes the compression method of src, which must decode to
// exactly size bytes. It decodes into dst when dst has the capacity; with
// method none it returns src itself, which the caller must not modify.
// what names the stream in errors ("payload", "nan mask").
func decompress(method string, src, dst []byte, size int64, what string) ([]byte, error) {
	switch method {
	case "none":
		if int64(len(src)) != size {
			return nil, fmt.Errorf("%s holds %d bytes, %d expected: %w", what, len(src), size, array.ErrCorrupt)
		}
		return src, nil
	case "zstd":
		d, err := zstdDecoder()
		if err != nil {
			return nil, fmt.Errorf("zstd: %v: %w", err, array.ErrUnsupported)
		}
		out, err := d.DecodeAll(src, buffer(dst, size)[:0])
		if err != nil {
			if errors.Is(err, zstd.ErrDecoderSizeExceeded) {
				return nil, fmt.Errorf("%s: zstd stream decodes to more than the %d bytes expected: %w", what, size, array.ErrCorrupt)
			}
			return nil, fmt.Errorf("%s: zstd: %v: %w", what, err, array.ErrCorrupt)
		}
		if int64(len(out)) != size {
			return nil, fmt.Errorf("%s: zstd stream decodes to %d bytes, %d expected: %w", what, len(out), size, array.ErrCorrupt)
		}
		return out, nil
	case "lz4":
		return decodeLZ4(src, dst, size, what)
	case "blosc2":
		out, err := decodeBlosc2Frame(src, size)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		if int64(len(out)) != size {
			return nil, fmt.Errorf("%s: blosc2 frame decodes to %d bytes, %d expected: %w", what, len(out), size, array.ErrCorrupt)
		}
		return out, nil
	case "szip":
		return nil, fmt.Errorf("%s: compression szip (CCSDS 121.0 via libaec) has no pure-Go decoder: %w", what, array.ErrUnsupported)
	case "zfp", "sz3":
		return nil, fmt.Errorf("%s: compression %s (a lossy floating-point codec) has no pure-Go decoder: %w", what, method, array.ErrUnsupported)
	case "rle", "roaring":
		return nil, fmt.Errorf("%s: compression %s is only for dtype bitmask: %w", what, method, array.ErrUnsupported)
	}
	return nil, fmt.Errorf("%s: unknown compression %q: %w", what, method, array.ErrUnsupported)
}

// decodeLZ4 decodes the size-prepended LZ4 layout: a little-endian u32
// decoded size, then one raw LZ4 block (not the LZ4 frame format).
func decodeLZ4(src, dst []byte, size int64, what string) ([]byte, error) {
	if len(src) < 4 {
		return nil, fmt.Errorf("%s: lz4 stream of %d bytes has no size prefix: %w", what, len(src), array.ErrCorrupt)
	}
	if n := int64(binary.LittleEndian.Uint32(src)); n != size {
		return nil, fmt.Errorf("%s: lz4 block declares %d bytes, %d expected: %w", what, n, size, array.ErrCorrupt)
	}
	out := buffer(dst, size)
	if size == 0 {
		return out, nil
	}
	n, err := lz4.UncompressBlock(src[4:], out)
	if err != nil {
		return nil, fmt.Errorf("%s: lz4: %v: %w", what, err, array.ErrCorrupt)
	}
	if int64(n) != size {
		return nil, fmt.Errorf("%s: lz4 block decodes to %d bytes, %d expected: %w", what, n, size, array.ErrCorrupt)
	}
	return out, nil
}

// decodeBlosc2Frame decodes a whole Blosc2 contiguous frame (every chunk
// in order, concatenated), refusing more than limit bytes of output.
func decodeBlosc2Frame(payload []byte, limit int64) ([]byte, error) {
	_, _ = payload, limit
	return nil, fmt.Errorf("blosc2 compression: not wired yet: %w", array.ErrUnsupported)
}
