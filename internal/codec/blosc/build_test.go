package blosc

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// chunkSpec describes a regular chunk for buildChunk, the test-only writer.
type chunkSpec struct {
	typesize, blocksize int
	codec               uint8 // format code
	dontSplit           bool
	filters, meta       [6]uint8
	version             uint8 // 0 means 5
}

// shuffle is the forward byte shuffle (the inverse of unshuffle).
func shuffle(src []byte, es int) []byte {
	out := bytes.Clone(src)
	m := len(src) / es
	for i := 0; i < m; i++ {
		for b := 0; b < es; b++ {
			out[b*m+i] = src[i*es+b]
		}
	}
	return out
}

// bitshuffle is the forward bit shuffle of the first m8 elements.
func bitshuffle(src []byte, es int) []byte {
	out := bytes.Clone(src)
	m8 := len(src) / es / 8 * 8
	rowLen := m8 / 8
	clear(out[:m8*es])
	for i := 0; i < m8; i++ {
		for b := 0; b < es; b++ {
			for k := 0; k < 8; k++ {
				if src[i*es+b]&(1<<k) != 0 {
					out[(8*b+k)*rowLen+i/8] |= 1 << (i % 8)
				}
			}
		}
	}
	return out
}

// bytedelta is the forward bytedelta: differences within each of es streams.
func bytedelta(src []byte, es int) []byte {
	out := bytes.Clone(src)
	m := len(src) / es
	for s := 0; s < es; s++ {
		for i := m - 1; i > 0; i-- {
			out[s*m+i] = src[s*m+i] - src[s*m+i-1]
		}
	}
	return out
}

// delta is the forward delta filter; ref is the original block 0 for
// blocks after the first, nil for block 0.
func delta(src, ref []byte, w int) []byte {
	out := bytes.Clone(src)
	end := len(src) / w * w
	for i := 0; i < end; i++ {
		switch {
		case ref != nil && i < len(ref)/w*w:
			out[i] = src[i] ^ ref[i]
		case ref == nil && i >= w:
			out[i] = src[i] ^ src[i-w]
		}
	}
	return out
}

// compress encodes one stream with the codec; ok false means "store raw".
func compress(t testing.TB, codec uint8, src []byte) []byte {
	t.Helper()
	switch codec {
	case codecLZ4:
		dst := make([]byte, lz4.CompressBlockBound(len(src)))
		n, err := lz4.CompressBlock(src, dst, nil)
		if err != nil {
			t.Fatal(err)
		}
		return dst[:n]
	case codecZlib:
		var b bytes.Buffer
		w := zlib.NewWriter(&b)
		w.Write(src)
		w.Close()
		return b.Bytes()
	case codecZstd:
		e, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		return e.EncodeAll(src, nil)
	}
	t.Fatalf("no test compressor for codec %d", codec)
	return nil
}

// buildChunk writes data as a regular chunk with an extended header,
// applying the filters from slot 0 to 5 per block and compressing each
// stream (stored raw when that does not make it smaller, zero streams as
// csize 0, as the C writer does).
func buildChunk(t testing.TB, s chunkSpec, data []byte) []byte {
	t.Helper()
	nb := len(data)
	nblocks := (nb + s.blocksize - 1) / s.blocksize
	ver := s.version
	if ver == 0 {
		ver = 5
	}
	flags := uint8(flagShuffle|flagBitshuffle) | s.codec<<5
	if s.dontSplit {
		flags |= flagDontSplit
	}
	hdr := make([]byte, extHeaderLen+4*nblocks)
	hdr[0], hdr[1], hdr[2], hdr[3] = ver, 1, flags, byte(s.typesize)
	binary.LittleEndian.PutUint32(hdr[4:], uint32(nb))
	binary.LittleEndian.PutUint32(hdr[8:], uint32(s.blocksize))
	copy(hdr[16:22], s.filters[:])
	copy(hdr[24:30], s.meta[:])
	body := hdr
	for j := 0; j < nblocks; j++ {
		binary.LittleEndian.PutUint32(body[extHeaderLen+4*j:], uint32(len(body)))
		blk := data[j*s.blocksize : min(nb, (j+1)*s.blocksize)]
		for slot, f := range s.filters {
			es := int(s.meta[slot])
			if es == 0 {
				es = s.typesize
			}
			switch f {
			case filterShuffle:
				blk = shuffle(blk, es)
			case filterBitshuffle:
				blk = bitshuffle(blk, s.typesize)
			case filterBytedelta:
				blk = bytedelta(blk, es)
			case filterDelta:
				var ref []byte
				if j > 0 {
					ref = data[:min(nb, s.blocksize)]
				}
				blk = delta(blk, ref, deltaUnit(s.typesize))
			}
		}
		nstreams := 1
		if !s.dontSplit && len(blk) == s.blocksize {
			nstreams = s.typesize
		}
		ne := len(blk) / nstreams
		for k := 0; k < nstreams; k++ {
			st := blk[k*ne : (k+1)*ne]
			var c []byte
			if !bytes.Equal(st, make([]byte, ne)) {
				c = compress(t, s.codec, st)
				if len(c) >= ne {
					c = st
				}
			}
			body = binary.LittleEndian.AppendUint32(body, uint32(len(c)))
			body = append(body, c...)
		}
	}
	binary.LittleEndian.PutUint32(body[12:], uint32(len(body)))
	return body
}
