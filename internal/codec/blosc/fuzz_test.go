package blosc

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecode feeds arbitrary chunks to ParseHeader and Decode: no panic, no
// hang, errors wrapping a sentinel, and output only inside dst. Seeds are
// every chunk of the fixtures plus chunks from the test writer.
func FuzzDecode(f *testing.F) {
	if dir := fixtureDir(); dir != "" {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			fr, err := readTestFrame(filepath.Join(dir, e.Name()))
			if err != nil {
				continue
			}
			for _, c := range fr.chunks {
				if c.special == 0 {
					if h, err := ParseHeader(c.raw); err == nil {
						f.Add(c.raw[:h.CBytes])
					}
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(7, 8))
	for _, codec := range []uint8{codecLZ4, codecZlib, codecZstd} {
		f.Add(buildChunk(f, chunkSpec{typesize: 4, blocksize: 256, codec: codec,
			filters: [6]uint8{0: filterDelta, 5: filterShuffle}}, smooth(r, 1000, 4)))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		h, err := ParseHeader(src)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("ParseHeader error without a sentinel: %v", err)
			}
			return
		}
		if h.NBytes > 1<<20 {
			return // bounded output for the fuzzer's sake
		}
		buf := make([]byte, h.NBytes+16)
		for i := range buf[h.NBytes:] {
			buf[h.NBytes+int64(i)] = 0x5A
		}
		err = Decode(buf[:h.NBytes:h.NBytes], src)
		if err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) {
			t.Fatalf("Decode error without a sentinel: %v", err)
		}
		for _, b := range buf[h.NBytes:] {
			if b != 0x5A {
				t.Fatal("Decode wrote past dst")
			}
		}
		// The last block alone, with block 0 from the whole decode.
		if nb := h.NBlocks(); err == nil && nb > 0 && h.BlockSize <= h.NBytes {
			last := buf[int64(nb-1)*h.BlockSize : h.NBytes]
			got := make([]byte, len(last))
			berr := DecodeBlock(got, src, nb-1, buf[:min(h.BlockSize, h.NBytes)])
			if berr != nil && !errors.Is(berr, ErrCorrupt) && !errors.Is(berr, ErrUnsupported) {
				t.Fatalf("DecodeBlock error without a sentinel: %v", berr)
			}
			if berr == nil && !bytes.Equal(got, last) {
				t.Fatal("DecodeBlock differs from Decode")
			}
		}
	})
}
