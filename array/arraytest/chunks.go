package arraytest

import (
	"sync"
	"testing"

	"github.com/tetsql/tetsql/array"
)

// checkChunks reads every chunk of a three ways (no dst, a dst too small,
// a large dst holding garbage, and dst = the previous chunk's result) and
// holds the results to each other, to the chunk's box, to the format's
// reference decoder and to the expected values. It also scatters every
// chunk into the whole array to check that the boxes tile the shape.
func checkChunks(t *testing.T, src array.Source, a array.Array, o Options) {
	in := a.Info()
	r, size := in.Rank(), int64(in.DType.Size())
	start, extent, pos := make([]int64, r), make([]int64, r), make([]int64, r)
	var covered []bool // global element already written by a chunk
	if in.Elements()*size <= o.MaxBytes {
		covered = make([]bool, in.Elements())
	}
	var prev []byte
	missing := 0
	for id := range in.ChunkCount() {
		n := in.ChunkBox(id, start, extent)
		for ax := range r {
			if start[ax] < 0 || extent[ax] < 1 || start[ax]+extent[ax] > in.Shape[ax] {
				t.Fatalf("array %q chunk %d: box start %v extent %v outside shape %v", in.Name, id, start, extent, in.Shape)
			}
		}
		c, ok := a.Chunk(id)
		if !ok {
			missing++
			if _, err := a.ReadChunk(id, nil); !isMissing(err) {
				t.Errorf("array %q chunk %d: absent from the index, ReadChunk error %v, want ErrMissingChunk", in.Name, id, err)
			}
			continue
		}
		if c.ID != id || c.RawBytes != n*size || c.StoredBytes < 0 || c.Codec == "" || c.Offset < -1 {
			t.Errorf("array %q chunk %d: %+v; want ID %d, RawBytes %d (%d elements × %d)", in.Name, id, c, id, n*size, n, size)
		}
		got := readChecked(t, src, a, id, nil, n*size)
		if got == nil {
			continue
		}
		reads := map[string][]byte{
			"too small dst":          make([]byte, 0, n*size/2),
			"large dst":              garbage(int(n*size) + 4096),
			"previous result as dst": prev,
		}
		for what, dst := range reads {
			if b := readChecked(t, src, a, id, dst, n*size); b != nil && !sameBytes(b, got) {
				t.Errorf("array %q chunk %d: ReadChunk with %s differs from ReadChunk with nil", in.Name, id, what)
			}
		}
		prev, _ = a.ReadChunk(id, nil)
		if o.Reference != nil {
			ref, err := o.Reference(in.Name, id)
			if err != nil || !sameBytes(ref, got) {
				t.Errorf("array %q chunk %d: differs from the reference decoder (error %v)", in.Name, id, err)
			}
		}
		for k := range n {
			rem := k
			for ax := r - 1; ax >= 0; ax-- {
				pos[ax] = start[ax] + rem%extent[ax]
				rem /= extent[ax]
			}
			if covered != nil {
				g := linear(in.Shape, pos)
				if covered[g] {
					t.Fatalf("array %q chunk %d: element %v already belongs to another chunk", in.Name, id, pos)
				}
				covered[g] = true
			}
			if o.Value != nil {
				if want, ok := o.Value(in.Name, pos); ok && !equalValue(in.DType.Float64(got, int(k)), want) {
					t.Errorf("array %q element %v = %v, want %v", in.Name, pos, in.DType.Float64(got, int(k)), want)
				}
			}
		}
	}
	if covered != nil && missing == 0 {
		for g, ok := range covered {
			if !ok {
				t.Errorf("array %q: element %d belongs to no chunk", in.Name, g)
				break
			}
		}
	}
}

// readChecked reads chunk id into dst and returns a snapshot of the
// result, or nil after reporting a failure.
func readChecked(t *testing.T, src array.Source, a array.Array, id int64, dst []byte, want int64) []byte {
	b, err := a.ReadChunk(id, dst)
	if err != nil {
		t.Errorf("array %q chunk %d: ReadChunk (dst cap %d): %v", a.Info().Name, id, cap(dst), err)
		return nil
	}
	if int64(len(b)) != want {
		t.Errorf("array %q chunk %d: ReadChunk gave %d bytes, want %d", a.Info().Name, id, len(b), want)
		return nil
	}
	s, err := snapshot(src, b)
	if err != nil {
		t.Errorf("array %q chunk %d: copying the result: %v", a.Info().Name, id, err)
		return nil
	}
	return s
}

// garbage is a buffer of non-zero bytes: a source that returns some of
// them instead of decoded bytes is caught.
func garbage(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(0xa5 ^ i)
	}
	return b
}

// linear is the row-major index of pos in shape.
func linear(shape, pos []int64) int64 {
	var l int64
	for i, s := range shape {
		l = l*s + pos[i]
	}
	return l
}

// checkConcurrent reads every chunk from several goroutines at once, each
// reusing its previous result as dst, and compares with a sequential read.
func checkConcurrent(t *testing.T, src array.Source, o Options) {
	type chunk struct {
		a    array.Array
		id   int64
		want []byte
	}
	var all []chunk
	var total int64
	for _, a := range src.Arrays() {
		for id := range a.Info().ChunkCount() {
			c, ok := a.Chunk(id)
			if !ok || total+c.RawBytes > o.MaxBytes {
				continue
			}
			b, err := a.ReadChunk(id, nil)
			if err != nil {
				continue // reported by the chunks check
			}
			want, err := snapshot(src, b)
			if err != nil {
				continue
			}
			total += c.RawBytes
			all = append(all, chunk{a, id, want})
		}
	}
	const workers = 4
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			var dst []byte
			for i := range all {
				c := all[(i+w*len(all)/workers)%len(all)] // start at different chunks
				b, err := c.a.ReadChunk(c.id, dst)
				if err != nil {
					t.Errorf("array %q chunk %d: concurrent ReadChunk: %v", c.a.Info().Name, c.id, err)
					return
				}
				got, err := snapshot(src, b)
				if err != nil || !sameBytes(got, c.want) {
					t.Errorf("array %q chunk %d: concurrent ReadChunk gave other bytes (%v)", c.a.Info().Name, c.id, err)
					return
				}
				dst = b
			}
		})
	}
	wg.Wait()
}
