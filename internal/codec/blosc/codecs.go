package blosc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/zlib"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// Codec ids as used in udcodec (and in frame headers).
const (
	idBloscLZ = 0
	idLZ4     = 1
	idLZ4HC   = 2
	idZlib    = 4
	idZstd    = 5
)

// codecName names a codec format code for messages.
func codecName(c uint8) string {
	switch c {
	case codecBloscLZ:
		return "blosclz"
	case codecLZ4:
		return "lz4"
	case codecZlib:
		return "zlib"
	case codecZstd:
		return "zstd"
	}
	return fmt.Sprintf("codec format %d", c)
}

// resolveCodec returns the codec format code a regular chunk's streams use,
// mapping a built-in codec named through udcodec to its format code.
func resolveCodec(h *Header) (uint8, error) {
	switch h.Codec {
	case codecBloscLZ, codecLZ4, codecZlib, codecZstd:
		return h.Codec, nil
	case codecUser:
		switch h.UDCodec {
		case idBloscLZ:
			return codecBloscLZ, nil
		case idLZ4, idLZ4HC:
			return codecLZ4, nil
		case idZlib:
			return codecZlib, nil
		case idZstd:
			return codecZstd, nil
		}
		return 0, fmt.Errorf("%w: codec plugin id %d", ErrUnsupported, h.UDCodec)
	}
	return 0, fmt.Errorf("%w: codec format %d", ErrUnsupported, h.Codec)
}

// streamDecoder decodes the compressed streams of one chunk. It holds the
// chunk's dictionary and the zstd decoder to use.
type streamDecoder struct {
	codec uint8
	dict  []byte
	zd    *zstd.Decoder
	owned bool // zd was made for this chunk's dictionary
	// zr and br are reused across the chunk's zlib streams (a zlib
	// reader costs tens of kilobytes to make).
	zr io.ReadCloser
	br bytes.Reader
}

// zstdOptions make DecodeAll write straight into the caller's buffer and
// refuse to grow it: the history is the output itself, so no window is
// allocated from a size the frame declares, and a stream inflating past
// its block fails instead of allocating.
func zstdOptions() []zstd.DOption {
	return []zstd.DOption{zstd.WithDecoderConcurrency(0), zstd.WithDecodeAllCapLimit(true),
		zstd.WithDecoderMaxMemory(zstd.MaxWindowSize)}
}

// sharedZstd is the dictionary-less zstd decoder; DecodeAll is safe for
// concurrent use.
var sharedZstd = sync.OnceValues(func() (*zstd.Decoder, error) {
	return zstd.NewReader(nil, zstdOptions()...)
})

// newStreamDecoder prepares a decoder for codec with an optional dictionary
// (a zstd-format dictionary when it has the zstd dictionary magic, raw
// content otherwise; lz4 uses the bytes as its prefix).
func newStreamDecoder(codec uint8, dict []byte) (*streamDecoder, error) {
	s := &streamDecoder{codec: codec, dict: dict}
	if codec != codecZstd {
		return s, nil
	}
	if len(dict) == 0 {
		d, err := sharedZstd()
		if err != nil {
			return nil, fmt.Errorf("%w: zstd: %v", ErrUnsupported, err)
		}
		s.zd = d
		return s, nil
	}
	opts := zstdOptions()
	if bytes.HasPrefix(dict, []byte{0x37, 0xa4, 0x30, 0xec}) {
		opts = append(opts, zstd.WithDecoderDicts(dict))
	} else {
		opts = append(opts, zstd.WithDecoderDictRaw(0, dict))
	}
	d, err := zstd.NewReader(nil, opts...)
	if err != nil {
		return nil, fmt.Errorf("%w: zstd dictionary: %v", ErrCorrupt, err)
	}
	s.zd, s.owned = d, true
	return s, nil
}

// close releases a decoder made for a dictionary.
func (s *streamDecoder) close() {
	if s.owned {
		s.zd.Close()
	}
	s.zd = nil
}

// decode decodes one stream into exactly len(out) bytes; any other output
// length is an error. Output is bounded by len(out) for lz4, blosclz and
// zlib, and by cap(out) for zstd, which may use the capacity as slack for
// faster copies (WithDecodeAllCapLimit refuses to write past it) and
// whose stream must still decode to exactly len(out) bytes.
func (s *streamDecoder) decode(in, out []byte) error {
	var n int
	var err error
	switch s.codec {
	case codecBloscLZ:
		n, err = decodeBloscLZ(in, out[:len(out):len(out)])
	case codecLZ4:
		if len(s.dict) > 0 {
			n, err = lz4.UncompressBlockWithDict(in, out[:len(out):len(out)], s.dict)
		} else {
			n, err = lz4.UncompressBlock(in, out[:len(out):len(out)])
		}
		if err != nil {
			err = fmt.Errorf("%w: lz4: %v", ErrCorrupt, err)
		}
	case codecZlib:
		s.br.Reset(in)
		if s.zr == nil {
			s.zr, err = zlib.NewReader(&s.br)
		} else {
			err = s.zr.(zlib.Resetter).Reset(&s.br, nil)
		}
		if err != nil {
			return fmt.Errorf("%w: zlib: %v", ErrCorrupt, err)
		}
		n, err = readExactly(s.zr, out, "zlib")
	case codecZstd:
		var got []byte
		got, err = s.zd.DecodeAll(in, out[:0])
		if errors.Is(err, zstd.ErrDecoderSizeExceeded) {
			return fmt.Errorf("%w: zstd stream longer than %d bytes", ErrCorrupt, len(out))
		}
		if err != nil {
			return fmt.Errorf("%w: zstd: %v", ErrCorrupt, err)
		}
		if len(got) > len(out) || len(got) > 0 && &got[0] != &out[0] {
			return fmt.Errorf("%w: zstd stream longer than %d bytes", ErrCorrupt, len(out))
		}
		n = len(got)
	default:
		return fmt.Errorf("%w: %s", ErrUnsupported, codecName(s.codec))
	}
	if err != nil {
		return err
	}
	if n != len(out) {
		return fmt.Errorf("%w: %s stream decoded to %d bytes, want %d", ErrCorrupt, codecName(s.codec), n, len(out))
	}
	return nil
}

// readExactly fills out from r and checks that r has nothing more: a
// stream that would inflate past out is refused without decoding further.
func readExactly(r io.Reader, out []byte, name string) (int, error) {
	n, err := io.ReadFull(r, out)
	if err != nil {
		return n, fmt.Errorf("%w: %s: %v", ErrCorrupt, name, err)
	}
	var one [1]byte
	m, err := r.Read(one[:])
	// io.Reader allows (0, nil); retry a few times, never forever.
	for try := 0; m == 0 && err == nil && try < 16; try++ {
		m, err = r.Read(one[:])
	}
	if m == 0 && err == nil {
		return n, fmt.Errorf("%w: %s: reader makes no progress", ErrCorrupt, name)
	}
	if m > 0 {
		return n, fmt.Errorf("%w: %s stream longer than %d bytes", ErrCorrupt, name, len(out))
	}
	if !errors.Is(err, io.EOF) {
		return n, fmt.Errorf("%w: %s: %v", ErrCorrupt, name, err)
	}
	return n, nil
}
