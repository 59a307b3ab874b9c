package tgm

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkScan measures parsing a file's structure and metadata.
func BenchmarkScan(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "forecast.tgm"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Scan(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecode measures decoding one object of a million elements
// per pipeline (throughput in decoded bytes).
func BenchmarkDecode(b *testing.B) {
	const n = 1 << 20
	rng := rand.New(rand.NewPCG(3, 4))
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = 250 + 40*rng.Float64()
	}
	raw := f64le(vals...)
	xs := make([]uint64, n)
	for i := range xs {
		xs[i] = rng.Uint64() >> 40
	}
	sp := func(bits int, kv ...any) map[string]any {
		return desc([]int{n}, "float64", append([]any{"encoding", "simple_packing", "sp_reference_value", 250.0,
			"sp_binary_scale_factor", -10, "sp_decimal_scale_factor", 0, "sp_bits_per_value", bits}, kv...)...)
	}
	for _, c := range []struct {
		name   string
		desc   map[string]any
		region []byte
	}{
		{"raw", desc([]int{n}, "float64"), raw},
		{"zstd", desc([]int{n}, "float64", "compression", "zstd"), zstdOf(b, raw)},
		{"shuffle+zstd", desc([]int{n}, "float64", "filter", "shuffle", "shuffle_element_size", 8, "compression", "zstd"), zstdOf(b, shuffled(raw, 8))},
		{"lz4", desc([]int{n}, "float64", "compression", "lz4"), lz4Of(raw)},
		{"packing16", sp(16), pack(xs, 16)},
		{"packing24+zstd", sp(24, "compression", "zstd"), zstdOf(b, pack(xs, 24))},
		{"packing12", sp(12), pack(xs, 12)},
	} {
		b.Run(c.name, func(b *testing.B) {
			f, err := Scan(message([]tframe{objectFrame(b, c.desc, c.region, true)}, false, 0))
			if err != nil {
				b.Fatal(err)
			}
			o := &f.Messages[0].Objects[0]
			dst := make([]byte, o.DecodedBytes())
			b.SetBytes(o.DecodedBytes())
			for b.Loop() {
				if _, err := o.Decode(dst, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
