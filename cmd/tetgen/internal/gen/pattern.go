package gen

import (
	"hash/fnv"
	"math"

	"github.com/tetsql/tetsql/tetcore"
)

// filler computes the elements of one dataset. It is read-only after
// newFiller, so workers share it; scratch space lives in rowBuf.
type filler struct {
	ds      *Dataset
	pattern Pattern
	key     uint64 // per (seed, dataset) hash key
	// wave parameters per axis: term(x) = sin(2π·freq·x/shape + phase)
	freq, phase []float64
	amp, off    float64 // integer scaling of the wave
}

// rowBuf is per-worker scratch.
type rowBuf struct {
	f    []float64
	u    []uint64
	tabs [][]float64 // wave terms per axis over the chunk's extent
}

// mix is the splitmix64 finaliser: a bijective 64-bit hash.
func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

const golden = 0x9e3779b97f4a7c15

// hashAt is the random stream value for element linear of this dataset.
func (g *filler) hashAt(linear int64) uint64 { return mix(g.key + uint64(linear)*golden) }

// unit maps a hash to [0, 1).
func unit(h uint64) float64 { return float64(h>>11) * (1.0 / (1 << 53)) }

func newFiller(ds *Dataset, p Pattern, seed uint64) *filler {
	h := fnv.New64a()
	h.Write([]byte(ds.Name))
	g := &filler{ds: ds, pattern: p, key: mix(mix(seed+golden) ^ h.Sum64())}
	r := len(ds.Shape)
	g.freq, g.phase = make([]float64, r), make([]float64, r)
	for a := range r {
		h := mix(g.key ^ uint64(a+1)*0xd1b54a32d192ed03)
		g.freq[a] = float64(1 + h%3)
		g.phase[a] = 2 * math.Pi * unit(mix(h))
	}
	switch ds.DType {
	case tetcore.U8:
		g.amp, g.off = 100, 100
	case tetcore.I16:
		g.amp = 10000
	case tetcore.U16:
		g.amp, g.off = 10000, 10000
	case tetcore.I32, tetcore.I64:
		g.amp = 1e6
	case tetcore.U32, tetcore.U64:
		g.amp, g.off = 1e6, 1e6
	}
	return g
}

// fill appends the elements of the chunk box (start, extent) to dst,
// row-major, and returns it.
func (g *filler) fill(dst []byte, start, extent []int64, rb *rowBuf) []byte {
	ds := g.ds
	size := ds.DType.Size()
	if ds.Data != nil {
		return tetcore.ExtractChunk(dst, ds.Data, ds.Shape, start, extent, size)
	}
	r := len(ds.Shape)
	n := int(extent[r-1])
	if cap(rb.f) < n {
		rb.f, rb.u = make([]float64, n), make([]uint64, n)
	}
	f, u := rb.f[:n], rb.u[:n]
	if g.pattern == Wave {
		g.waveTables(start, extent, rb)
	}
	// stride[a]: elements per step along axis a of the whole array.
	stride := make([]int64, r)
	s := int64(1)
	for a := r - 1; a >= 0; a-- {
		stride[a] = s
		s *= ds.Shape[a]
	}
	idx := make([]int64, r) // position inside the chunk; idx[r-1] stays 0
	isFloat := ds.DType.IsFloat()
	for {
		base := int64(0)
		for a := range r {
			base += (start[a] + idx[a]) * stride[a]
		}
		switch g.pattern {
		case Ramp:
			for j := range n {
				f[j], u[j] = float64(base+int64(j)), uint64(base+int64(j))
			}
		case Random:
			for j := range n {
				h := g.hashAt(base + int64(j))
				f[j], u[j] = unit(h), h
			}
		case Wave:
			g.waveRow(f, u, base, idx, rb.tabs, isFloat)
		}
		if isFloat {
			dst = appendFloats(dst, ds.DType, f)
		} else {
			dst = appendInts(dst, ds.DType, u)
		}
		a := r - 2
		for ; a >= 0; a-- {
			if idx[a]++; idx[a] < extent[a] {
				break
			}
			idx[a] = 0
		}
		if a < 0 {
			return dst
		}
	}
}

// waveTables precomputes each axis' term over the chunk's extent.
func (g *filler) waveTables(start, extent []int64, rb *rowBuf) {
	r := len(start)
	if len(rb.tabs) < r {
		rb.tabs = make([][]float64, r)
	}
	for a := range r {
		t := rb.tabs[a][:0]
		k := 2 * math.Pi * g.freq[a] / float64(g.ds.Shape[a])
		for i := range extent[a] {
			x := float64(start[a] + i)
			if a%2 == 0 {
				t = append(t, math.Sin(k*x+g.phase[a]))
			} else {
				t = append(t, math.Cos(k*x+g.phase[a]))
			}
		}
		rb.tabs[a] = t
	}
}

// waveRow computes one row: the mean of the axis terms plus ±1% noise,
// rounded to a multiple of 1/1024 for floats and scaled for integers.
func (g *filler) waveRow(f []float64, u []uint64, base int64, idx []int64, tabs [][]float64, isFloat bool) {
	r := len(idx)
	sum := 0.0
	for a := 0; a < r-1; a++ {
		sum += tabs[a][idx[a]]
	}
	last := tabs[r-1]
	inv := 1 / float64(r)
	for j := range f {
		v := (sum+last[j])*inv + 0.02*(unit(g.hashAt(base+int64(j)))-0.5)
		if isFloat {
			f[j] = math.Round(v*1024) / 1024 // measured data has limited precision
			continue
		}
		x := math.Round(v*g.amp + g.off)
		if g.off > 0 && x < 0 {
			x = 0 // unsigned: the noise may dip just below zero
		}
		u[j] = uint64(int64(x))
	}
}

// appendFloats encodes v as float dtype dt, little-endian.
func appendFloats(dst []byte, dt tetcore.DType, v []float64) []byte {
	switch dt {
	case tetcore.F64:
		for _, x := range v {
			b := math.Float64bits(x)
			dst = append(dst, byte(b), byte(b>>8), byte(b>>16), byte(b>>24), byte(b>>32), byte(b>>40), byte(b>>48), byte(b>>56))
		}
	case tetcore.F32:
		for _, x := range v {
			b := math.Float32bits(float32(x))
			dst = append(dst, byte(b), byte(b>>8), byte(b>>16), byte(b>>24))
		}
	case tetcore.F16:
		for _, x := range v {
			b := tetcore.Float32ToHalf(float32(x))
			dst = append(dst, byte(b), byte(b>>8))
		}
	}
	return dst
}

// appendInts encodes the low bits of v (two's complement) as integer dtype dt.
func appendInts(dst []byte, dt tetcore.DType, v []uint64) []byte {
	switch dt.Size() {
	case 1:
		for _, x := range v {
			dst = append(dst, byte(x))
		}
	case 2:
		for _, x := range v {
			dst = append(dst, byte(x), byte(x>>8))
		}
	case 4:
		for _, x := range v {
			dst = append(dst, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
		}
	case 8:
		for _, x := range v {
			dst = append(dst, byte(x), byte(x>>8), byte(x>>16), byte(x>>24), byte(x>>32), byte(x>>40), byte(x>>48), byte(x>>56))
		}
	}
	return dst
}
