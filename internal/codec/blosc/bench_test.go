package blosc

import (
	"path/filepath"
	"testing"
)

// BenchmarkDecodeFixtures decodes every regular chunk of a few fixtures
// per iteration; b.SetBytes counts decoded bytes, so MB/s is the decode
// throughput per codec and filter pipeline on one core.
func BenchmarkDecodeFixtures(b *testing.B) {
	dir := fixtureDir()
	if dir == "" {
		b.Skip("fixtures not present")
	}
	for _, name := range []string{"codec_blosclz", "codec_lz4", "codec_lz4hc", "codec_zlib", "codec_zstd",
		"blosclz_many_blocks", "filter_bitshuffle", "filter_bytedelta", "filter_delta", "zstd_dict", "random_u8"} {
		b.Run(name, func(b *testing.B) {
			f, err := readTestFrame(filepath.Join(dir, name+".b2nd"))
			if err != nil {
				b.Fatal(err)
			}
			var raws [][]byte
			var total int64
			for _, c := range f.chunks {
				if c.special == 0 {
					raws = append(raws, c.raw)
					total += int64(f.chunksize)
				}
			}
			out := make([]byte, f.chunksize)
			b.SetBytes(total)
			b.ResetTimer()
			for range b.N {
				for _, r := range raws {
					if err := Decode(out, r); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
