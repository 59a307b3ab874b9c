package tgm

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/codec/blosc"
)

// pack writes values of b bits MSB-first, bit by bit (the slow, obvious
// way, independent of the reader's word-at-a-time unpacking).
func pack(xs []uint64, b int) []byte {
	out := make([]byte, (len(xs)*b+7)/8)
	bit := 0
	for _, x := range xs {
		for k := b - 1; k >= 0; k-- {
			if x>>uint(k)&1 == 1 {
				out[bit/8] |= 0x80 >> uint(bit%8)
			}
			bit++
		}
	}
	return out
}

func TestSimplePackingEveryWidth(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 37 // not a multiple of 8: the last byte is partly padding
	for b := 0; b <= 64; b++ {
		xs := make([]uint64, n)
		for i := range xs {
			if b > 0 {
				xs[i] = rng.Uint64() >> uint(64-b)
			}
		}
		xs[0] = 0
		if b > 0 {
			xs[n-1] = math.MaxUint64 >> uint(64-b) // all ones, at the very end
		}
		ref, e, d := 101325.25, -7+b/4, 2-b/20
		for _, comp := range []string{"none", "zstd", "lz4"} {
			payload := pack(xs, b)
			switch comp {
			case "zstd":
				payload = zstdOf(t, payload)
			case "lz4":
				payload = lz4Of(payload)
			}
			o := oneObject(t, desc([]int{n}, "float64", "encoding", "simple_packing", "compression", comp,
				"sp_reference_value", ref, "sp_binary_scale_factor", e, "sp_decimal_scale_factor", d,
				"sp_bits_per_value", b), payload)
			out, err := o.Decode(nil, 0)
			if err != nil {
				t.Fatalf("bits %d %s: %v", b, comp, err)
			}
			scale := math.Ldexp(1, e) / math.Pow10(d)
			for i, x := range xs {
				want := ref + float64(float64(x)*scale)
				if got := array.F64.Float64(out, i); got != want {
					t.Fatalf("bits %d %s: element %d (X=%d) = %v, want %v", b, comp, i, x, got, want)
				}
			}
		}
	}
}

func TestSimplePackingShuffleOfBytes(t *testing.T) {
	xs := []uint64{1, 2, 3, 4095, 0}
	payload := pack(xs, 12)
	o := oneObject(t, desc([]int{5}, "float64", "encoding", "simple_packing", "filter", "shuffle",
		"shuffle_element_size", 1, "sp_reference_value", 0.0, "sp_binary_scale_factor", 0,
		"sp_decimal_scale_factor", 0, "sp_bits_per_value", 12), payload)
	out, err := o.Decode(nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range xs {
		if got := array.F64.Float64(out, i); got != float64(x) {
			t.Errorf("element %d = %v, want %d", i, got, x)
		}
	}
}

func TestUnshuffle(t *testing.T) {
	src := []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	for _, es := range []int{1, 2, 3, 4, 6, 12} {
		dst := make([]byte, len(src))
		blosc.Unshuffle(dst, shuffled(src, es), es)
		if string(dst) != string(src) {
			t.Errorf("es %d: %v", es, dst)
		}
	}
}
