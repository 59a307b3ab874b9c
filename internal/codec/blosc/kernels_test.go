package blosc

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// The byte-at-a-time loops the word-wide kernels replace, kept as the
// reference the kernels must equal.

func refUnshuffle(dst, src []byte, es int) {
	n := len(src)
	m := n / es
	copy(dst, src)
	for b := 0; b < es && m > 0; b++ {
		for i := 0; i < m; i++ {
			dst[i*es+b] = src[b*m+i]
		}
	}
}

func refUnbitshuffle(dst, src []byte, es int) {
	n := len(src)
	m8 := n / es / 8 * 8
	copy(dst, src)
	rowLen := m8 / 8
	clear(dst[:m8*es])
	for i := 0; i < m8; i++ {
		for b := 0; b < es; b++ {
			for k := 0; k < 8; k++ {
				if src[(8*b+k)*rowLen+i/8]&(1<<(i%8)) != 0 {
					dst[i*es+b] |= 1 << k
				}
			}
		}
	}
}

func refUndelta(buf, ref []byte, w int) {
	end := len(buf) / w * w
	if ref == nil {
		for i := w; i < end; i++ {
			buf[i] ^= buf[i-w]
		}
		return
	}
	end = min(end, len(ref)/w*w)
	for i := 0; i < end; i++ {
		buf[i] ^= ref[i]
	}
}

func refUnbytedelta(buf []byte, es int) {
	m := len(buf) / es
	for s := 0; s < es; s++ {
		var acc byte
		for i := s * m; i < s*m+m; i++ {
			acc += buf[i]
			buf[i] = acc
		}
	}
}

// TestKernelsMatchByteLoops compares every kernel with its byte loop on
// random data of many lengths (word loops, their tails and lengths below
// one word) and element sizes (the specialised 2, 4, 8 and the generic
// path).
func TestKernelsMatchByteLoops(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, es := range []int{1, 2, 3, 4, 5, 7, 8, 9, 16} {
		for _, n := range []int{0, 1, 5, 8, 15, 16, 17, 63, 64, 65, 127, 128, 129, 255, 256, 257, 1000, 4099, 8192, 8200} {
			name := fmt.Sprintf("es%d/n%d", es, n)
			src := make([]byte, n)
			for i := range src {
				src[i] = byte(r.Uint32())
				if r.IntN(4) == 0 {
					src[i] = 0 // zero words take their own branch in unbitshuffle
				}
			}
			want, got := make([]byte, n), make([]byte, n)
			refUnshuffle(want, src, es)
			unshuffle(got, src, es)
			if !bytes.Equal(got, want) {
				t.Errorf("%s: unshuffle differs", name)
			}
			refUnbitshuffle(want, src, es)
			unbitshuffle(got, src, es, 5, make([]byte, n))
			if !bytes.Equal(got, want) {
				t.Errorf("%s: unbitshuffle differs", name)
			}
			// In place (dst is src), as the pipeline never does but the
			// contract allows.
			inPlace := bytes.Clone(src)
			unbitshuffle(inPlace, inPlace, es, 5, make([]byte, n))
			if es > 1 && !bytes.Equal(inPlace, want) {
				t.Errorf("%s: unbitshuffle in place differs", name)
			}
			copy(want, src)
			copy(got, src)
			refUnbytedelta(want, es)
			unbytedelta(got, es)
			if !bytes.Equal(got, want) {
				t.Errorf("%s: unbytedelta differs", name)
			}
			if w := deltaUnit(es); es <= 8 {
				copy(want, src)
				copy(got, src)
				refUndelta(want, nil, w)
				undelta(got, nil, w)
				if !bytes.Equal(got, want) {
					t.Errorf("%s: undelta block 0 differs", name)
				}
				ref := src[:n/3]
				copy(want, src)
				copy(got, src)
				refUndelta(want, ref, w)
				undelta(got, ref, w)
				if !bytes.Equal(got, want) {
					t.Errorf("%s: undelta with reference differs", name)
				}
			}
		}
	}
}

func TestTransposeBytes8(t *testing.T) {
	var x [8]uint64
	for r := range x {
		for c := 0; c < 8; c++ {
			x[r] |= uint64(r*8+c) << (8 * c)
		}
	}
	x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7] = transposeBytes8(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7])
	for r := range x {
		for c := 0; c < 8; c++ {
			if got := byte(x[r] >> (8 * c)); got != byte(c*8+r) {
				t.Fatalf("row %d col %d = %d, want %d", r, c, got, c*8+r)
			}
		}
	}
}

func TestTransposeBitLanes(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var x [8]uint64
	for k := range x {
		x[k] = r.Uint64()
	}
	var y [8]uint64
	y[0], y[1], y[2], y[3], y[4], y[5], y[6], y[7] = transposeBitLanes(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7])
	for lane := 0; lane < 8; lane++ {
		for k := 0; k < 8; k++ {
			for i := 0; i < 8; i++ {
				if x[k]>>(8*lane+i)&1 != y[i]>>(8*lane+k)&1 {
					t.Fatalf("lane %d: bit %d of row %d not at bit %d of row %d", lane, i, k, k, i)
				}
			}
		}
	}
}
