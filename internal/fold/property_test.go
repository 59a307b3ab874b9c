package fold_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/fold"
)

// box is a random chunk geometry with a sub-box and a keep mask.
type box struct {
	extent, lo, hi []int64
	keep           []bool
}

func randBox(rng *rand.Rand) box {
	r := 1 + rng.IntN(4)
	b := box{make([]int64, r), make([]int64, r), make([]int64, r), make([]bool, r)}
	for d := range r {
		switch rng.IntN(6) {
		case 0:
			b.extent[d] = 1
		case 1:
			b.extent[d] = 20 + rng.Int64N(60) // runs ≥ minRun
		default:
			b.extent[d] = 1 + rng.Int64N(8)
		}
		if r == 1 && rng.IntN(4) == 0 {
			b.extent[d] = 1000 + rng.Int64N(5000) // several blocks
		}
		b.lo[d] = rng.Int64N(b.extent[d])
		b.hi[d] = b.lo[d] + 1 + rng.Int64N(b.extent[d]-b.lo[d])
		if rng.IntN(3) == 0 { // often the whole axis
			b.lo[d], b.hi[d] = 0, b.extent[d]
		}
		b.keep[d] = rng.IntN(2) == 0
	}
	return b
}

func (b box) size() []int64 {
	n := make([]int64, len(b.lo))
	for d := range n {
		n[d] = b.hi[d] - b.lo[d]
	}
	return n
}

func (b box) elems() int {
	n := 1
	for _, e := range b.extent {
		n *= int(e)
	}
	return n
}

// reference folds the box naively, element by element, into groups.
func (b box) reference(dt array.DType, data []byte, stride []int64, base, groups int64) []*ref {
	refs := make([]*ref, groups)
	for g := range refs {
		refs[g] = newRef()
	}
	r := len(b.extent)
	idx := append([]int64(nil), b.lo...)
	for {
		pos, g := int64(0), base
		for d := range r {
			pos = pos*b.extent[d] + idx[d]
			g += stride[d] * (idx[d] - b.lo[d])
		}
		refs[g].add(dt, data, int(pos))
		d := r - 1
		for ; d >= 0; d-- {
			if idx[d]++; idx[d] < b.hi[d] {
				break
			}
			idx[d] = b.lo[d]
		}
		if d < 0 {
			return refs
		}
	}
}

func TestFoldGroups_random(t *testing.T) {
	t.Parallel()
	randomFolds(t, rand.New(rand.NewPCG(1, 2)), 1500)
}

// TestFoldGroups_portable runs the random folds through the byte-order
// independent decoder only, the path of big-endian hosts. Not parallel:
// it flips a package-wide switch.
func TestFoldGroups_portable(t *testing.T) {
	defer fold.ForcePortable()()
	randomFolds(t, rand.New(rand.NewPCG(13, 14)), 300)
}

// TestFoldGroups_aligned runs the random folds (a third of them on
// misaligned payloads) with misaligned runs copied to aligned buffers, as
// on CPUs without fast unaligned loads. Not parallel: it flips a switch.
func TestFoldGroups_aligned(t *testing.T) {
	defer fold.ForceAligned()()
	randomFolds(t, rand.New(rand.NewPCG(15, 16)), 300)
}

// randomFolds compares FoldGroups (accumulating two halves of the box)
// and FoldBox with the naive reference on random geometry and data.
func randomFolds(t *testing.T, rng *rand.Rand, iters int) {
	t.Helper()
	for iter := range iters {
		dt := allDTypes[iter%len(allDTypes)]
		b := randBox(rng)
		pSpecial := []float64{0, 0, 0.01, 0.3}[rng.IntN(4)]
		data := randPayload(rng, dt, b.elems(), pSpecial)
		if iter%3 == 0 { // unaligned payload
			buf := make([]byte, len(data)+1)
			copy(buf[1:], data)
			data = buf[1:]
		}
		stride, groups := fold.Strides(b.size(), b.keep)
		if iter%5 == 0 { // keys in the other order: reversed strides
			stride, groups = reversedStrides(b.size(), b.keep)
		}
		base0 := int64(0)
		if iter%7 == 0 { // descending keys: negative strides
			for d, s := range stride {
				if s != 0 && rng.IntN(2) == 0 {
					stride[d] = -s
					base0 += s * (b.hi[d] - b.lo[d] - 1)
				}
			}
		}
		what := fmt.Sprintf("iter %d box %+v stride %v base %d", iter, b, stride, base0)
		refs := b.reference(dt, data, stride, base0, groups)
		// Pre-seed the groups with an earlier partial: FoldGroups merges.
		out := make([]fold.Stats, groups)
		half := b.hi[0] - (b.hi[0]-b.lo[0])/2
		hi0 := append([]int64{half}, b.hi[1:]...)
		if err := fold.FoldGroups(dt, data, b.extent, b.lo, hi0, stride, base0, out); err != nil {
			t.Fatal(err)
		}
		lo1 := append([]int64{half}, b.lo[1:]...)
		base := base0 + stride[0]*(half-b.lo[0])
		if err := fold.FoldGroups(dt, data, b.extent, lo1, b.hi, stride, base, out); err != nil {
			t.Fatal(err)
		}
		for g := range out {
			refs[g].check(t, dt, fmt.Sprintf("%s group %d", what, g), out[g])
		}
		// FoldBox is the single group of everything.
		all := newRef()
		for _, r := range refs {
			all.merge(r)
		}
		s, err := fold.FoldBox(dt, data, b.extent, b.lo, b.hi)
		if err != nil {
			t.Fatal(err)
		}
		all.check(t, dt, what+" FoldBox", s)
	}
}

// reversedStrides makes the first kept axis vary fastest.
func reversedStrides(size []int64, keep []bool) ([]int64, int64) {
	stride := make([]int64, len(size))
	g := int64(1)
	for d := range size {
		if keep[d] {
			stride[d] = g
			g *= size[d]
		}
	}
	return stride, g
}

// merge adds the elements of o to r (the reference of a union).
func (r *ref) merge(o *ref) {
	r.count += o.count
	r.nulls += o.nulls
	r.posInf += o.posInf
	r.negInf += o.negInf
	r.sum.Add(r.sum, o.sum)
	r.abs += o.abs
	r.isum.Add(r.isum, o.isum)
	r.min, r.max = min(r.min, o.min), max(r.max, o.max)
	if o.imin != nil && (r.imin == nil || o.imin.Cmp(r.imin) < 0) {
		r.imin = o.imin
	}
	if o.imax != nil && (r.imax == nil || o.imax.Cmp(r.imax) > 0) {
		r.imax = o.imax
	}
	r.vals = append(r.vals, o.vals...)
}

// TestFoldGroups_chunked tiles a global array into chunks and folds each
// into the groups of a global selection, as the vtab does.
func TestFoldGroups_chunked(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for iter := range 200 {
		dt := allDTypes[iter%len(allDTypes)]
		r := 1 + rng.IntN(3)
		shape, chunk := make([]int64, r), make([]int64, r)
		selLo, selHi, keep := make([]int64, r), make([]int64, r), make([]bool, r)
		for d := range r {
			shape[d] = 1 + rng.Int64N(40)
			chunk[d] = 1 + rng.Int64N(shape[d])
			selLo[d] = rng.Int64N(shape[d])
			selHi[d] = selLo[d] + 1 + rng.Int64N(shape[d]-selLo[d])
			keep[d] = rng.IntN(2) == 0
		}
		global := box{shape, selLo, selHi, keep}
		data := randPayload(rng, dt, global.elems(), 0.01)
		stride, groups := fold.Strides(global.size(), keep)
		refs := global.reference(dt, data, stride, 0, groups)
		out := make([]fold.Stats, groups)
		forEachChunk(shape, chunk, func(start, ext []int64) {
			lo, hi := make([]int64, r), make([]int64, r)
			base := int64(0)
			for d := range r {
				lo[d] = max(selLo[d]-start[d], 0)
				hi[d] = min(selHi[d]-start[d], ext[d])
				if lo[d] >= hi[d] {
					return
				}
				base += stride[d] * (start[d] + lo[d] - selLo[d])
			}
			payload := extract(dt, data, shape, start, ext)
			if err := fold.FoldGroups(dt, payload, ext, lo, hi, stride, base, out); err != nil {
				t.Fatal(err)
			}
		})
		for g := range out {
			refs[g].check(t, dt, fmt.Sprintf("iter %d shape %v chunk %v group %d", iter, shape, chunk, g), out[g])
		}
	}
}

// forEachChunk calls fn with the start and edge-trimmed extent of every
// chunk of a regular grid.
func forEachChunk(shape, chunk []int64, fn func(start, ext []int64)) {
	r := len(shape)
	start := make([]int64, r)
	for {
		ext := make([]int64, r)
		for d := range r {
			ext[d] = min(chunk[d], shape[d]-start[d])
		}
		fn(start, ext)
		d := r - 1
		for ; d >= 0; d-- {
			if start[d] += chunk[d]; start[d] < shape[d] {
				break
			}
			start[d] = 0
		}
		if d < 0 {
			return
		}
	}
}

// extract copies the chunk at start with extent ext out of a row-major
// global payload.
func extract(dt array.DType, data []byte, shape, start, ext []int64) []byte {
	b := box{extent: ext, lo: make([]int64, len(ext)), hi: ext}
	out := make([]byte, 0, b.elems()*dt.Size())
	sz := int64(dt.Size())
	idx := make([]int64, len(ext))
	for {
		pos := int64(0)
		for d := range ext {
			pos = pos*shape[d] + start[d] + idx[d]
		}
		out = append(out, data[pos*sz:(pos+1)*sz]...)
		d := len(ext) - 1
		for ; d >= 0; d-- {
			if idx[d]++; idx[d] < ext[d] {
				break
			}
			idx[d] = 0
		}
		if d < 0 {
			return out
		}
	}
}
