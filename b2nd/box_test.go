package b2nd

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/codec/blosc"
)

// TestReadChunkBox: on every fixture, random boxes of every chunk read
// through ReadChunkBox hold the same elements as ReadChunk's chunk, and
// a box of one element decodes less than the whole chunk where the chunk
// has many blocks.
func TestReadChunkBox(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	partial := 0
	for _, fx := range loadFixtures(t) {
		if fx.ExpectError != nil {
			continue
		}
		src, err := Open(filepath.Join("testdata", fx.File), array.Options{})
		if err != nil {
			t.Fatalf("%s: %v", fx.File, err)
		}
		a := src.arr
		in := a.Info()
		r := in.Rank()
		ts := int64(in.DType.Size())
		start, extent := make([]int64, r), make([]int64, r)
		for id := range in.ChunkCount() {
			in.ChunkBox(id, start, extent)
			whole, err := a.ReadChunk(id, nil)
			if err != nil {
				t.Fatalf("%s chunk %d: %v", fx.File, id, err)
			}
			for trial := 0; trial < 8; trial++ {
				lo, hi := make([]int64, r), make([]int64, r)
				for d := range r {
					lo[d] = rng.Int64N(extent[d])
					hi[d] = lo[d] + 1
					if trial%2 == 1 {
						hi[d] = lo[d] + 1 + rng.Int64N(extent[d]-lo[d])
					}
				}
				dst := make([]byte, 0, len(whole))
				for i := range dst[:cap(dst)] {
					dst[:cap(dst)][i] = 0xEE // undefined elements must not pass for defined ones
				}
				got, decoded, isPartial, err := a.ReadChunkBox(id, lo, hi, dst)
				if err != nil {
					t.Fatalf("%s chunk %d box %v-%v: %v", fx.File, id, lo, hi, err)
				}
				if len(got) != len(whole) || decoded <= 0 || decoded > a.src.frame.ChunkSize {
					t.Fatalf("%s chunk %d: %d bytes (%d decoded), want %d", fx.File, id, len(got), decoded, len(whole))
				}
				if isPartial && decoded >= a.src.frame.ChunkSize {
					t.Fatalf("%s chunk %d: partial with %d of %d bytes decoded", fx.File, id, decoded, a.src.frame.ChunkSize)
				}
				if isPartial {
					partial++
				} else if !bytes.Equal(got, whole) {
					t.Fatalf("%s chunk %d box %v-%v: not partial, yet differs from the chunk", fx.File, id, lo, hi)
				}
				eachInBox(lo, hi, extent, func(i int64) {
					if !bytes.Equal(got[i*ts:(i+1)*ts], whole[i*ts:(i+1)*ts]) {
						t.Fatalf("%s chunk %d box %v-%v: element %d differs", fx.File, id, lo, hi, i)
					}
				})
			}
		}
		src.Close()
	}
	if partial == 0 {
		t.Error("no box read decoded less than its chunk: block pruning never ran")
	}
}

// eachInBox calls fn with the row-major offset (over extent) of every
// position in [lo, hi).
func eachInBox(lo, hi, extent []int64, fn func(int64)) {
	r := len(lo)
	idx := append([]int64(nil), lo...)
	for {
		off := int64(0)
		for d := range r {
			off = off*extent[d] + idx[d]
		}
		fn(off)
		d := r - 1
		for ; d >= 0; d-- {
			if idx[d]++; idx[d] < hi[d] {
				break
			}
			idx[d] = lo[d]
		}
		if d < 0 {
			return
		}
	}
}

// TestReadChunkBox_bad: boxes outside the chunk and bad ids are errors.
func TestReadChunkBox_bad(t *testing.T) {
	src, err := Open(filepath.Join("testdata", "grid_25_chunks.b2nd"), array.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	a := src.arr
	for _, tc := range []struct{ lo, hi []int64 }{{[]int64{0, 0}, []int64{0, 1}}, {[]int64{-1, 0}, []int64{1, 1}}, {[]int64{0, 0}, []int64{1 << 40, 1}}} {
		if _, _, _, err := a.ReadChunkBox(0, tc.lo, tc.hi, nil); !errors.Is(err, array.ErrCorrupt) {
			t.Errorf("box %v-%v: %v, want ErrCorrupt", tc.lo, tc.hi, err)
		}
	}
	if _, _, _, err := a.ReadChunkBox(-1, []int64{0, 0}, []int64{1, 1}, nil); !errors.Is(err, array.ErrMissingChunk) {
		t.Errorf("chunk -1: %v, want ErrMissingChunk", err)
	}
}

// TestReadChunk_paths: whatever path ReadChunk takes (straight into the
// result when the box comes first in the decoded chunk, memcpyed chunks
// from the mapping, the scratch buffer otherwise), every chunk equals
// the slow path: the whole chunk decoded, then re-ordered block by block.
func TestReadChunk_paths(t *testing.T) {
	direct := 0
	for _, fx := range loadFixtures(t) {
		if fx.ExpectError != nil {
			continue
		}
		src, err := Open(filepath.Join("testdata", fx.File), array.Options{})
		if err != nil {
			t.Fatal(err)
		}
		a, f := src.arr, src.frame
		in := a.Info()
		r := in.Rank()
		start, extent := make([]int64, r), make([]int64, r)
		for id := range in.ChunkCount() {
			n := in.ChunkBox(id, start, extent) * f.Typesize
			if f.Chunks[id].Kind != blosc.ChunkStored {
				continue
			}
			if a.geo.inOrder(extent) {
				direct++
			}
			raw, err := f.ReadChunk(int(id))
			if err != nil {
				t.Fatal(err)
			}
			whole := make([]byte, f.ChunkSize)
			if err := blosc.Decode(whole, raw); err != nil {
				t.Fatal(err)
			}
			want := make([]byte, n)
			a.geo.reorder(want, whole, extent)
			if f.BigEndian {
				swapBytes(want, f.Typesize)
			}
			for _, dst := range [][]byte{nil, make([]byte, 0, n), make([]byte, 0, f.ChunkSize+7)} {
				got, err := a.ReadChunk(id, dst)
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("%s chunk %d (dst cap %d): %v, differs from the slow path", fx.File, id, cap(dst), err)
				}
			}
		}
		src.Close()
	}
	if direct == 0 {
		t.Error("no chunk took the direct path")
	}
}
