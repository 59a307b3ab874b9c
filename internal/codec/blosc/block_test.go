package blosc

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// TestDecodeBlockFixtures: every block of every fixture chunk decoded alone
// equals the same bytes of the whole decoded chunk.
func TestDecodeBlockFixtures(t *testing.T) {
	dir := fixtureDir()
	if dir == "" {
		t.Skip("fixtures not present")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	blocks := 0
	for _, e := range entries {
		f, err := readTestFrame(filepath.Join(dir, e.Name()))
		if err != nil {
			continue // expected.json, make.py, README.md
		}
		for i, c := range f.chunks {
			if c.special != 0 {
				continue
			}
			whole, err := f.decodeChunk(c)
			if err != nil {
				t.Fatalf("%s chunk %d: %v", e.Name(), i, err)
			}
			h, _ := ParseHeader(c.raw)
			bs := int(h.BlockSize)
			for j := 0; j < h.NBlocks(); j++ {
				want := whole[j*bs : min(len(whole), (j+1)*bs)]
				got := make([]byte, len(want))
				if err := DecodeBlock(got, c.raw, j, whole[:min(bs, len(whole))]); err != nil {
					t.Fatalf("%s chunk %d block %d: %v", e.Name(), i, j, err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("%s chunk %d block %d differs", e.Name(), i, j)
				}
				blocks++
			}
		}
	}
	if blocks < 100 {
		t.Fatalf("only %d blocks checked", blocks)
	}
}

// TestDecodeBlockDelta: a later block of a delta chunk needs block 0.
func TestDecodeBlockDelta(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	data := smooth(r, 4000, 4)
	c := buildChunk(t, chunkSpec{typesize: 4, blocksize: 1024, codec: codecZstd,
		filters: [6]uint8{0: filterDelta, 5: filterShuffle}}, data)
	got := make([]byte, 1024)
	if err := DecodeBlock(got, c, 2, nil); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("without block 0: %v", err)
	}
	if err := DecodeBlock(got, c, 2, data[:1024]); err != nil || !bytes.Equal(got, data[2048:3072]) {
		t.Fatalf("block 2: %v", err)
	}
	last := make([]byte, 4000-3072)
	if err := DecodeBlock(last, c, 3, data[:1024]); err != nil || !bytes.Equal(last, data[3072:]) {
		t.Fatalf("leftover block: %v", err)
	}
	if err := DecodeBlock(got, c, 4, data[:1024]); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("block past the end: %v", err)
	}
	if err := DecodeBlock(got[:10], c, 1, data[:1024]); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("wrong size: %v", err)
	}
}
