package tetcore_test

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/tetsql/tetsql/tetcore"
)

// smoothField is rows×cols f32 values of a smooth field (a temperature-
// like surface in K) with a little noise, kept to 0.01 K as packed
// netCDF data is; little-endian. (Unrounded, the mantissas are noise and
// the zstd encoder stores raw blocks: ratio 1.00.)
func smoothField(rows, cols int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 7))
	b := make([]byte, 0, rows*cols*4)
	for y := 0; y < rows; y++ {
		for x := 0; x < cols; x++ {
			v := 285 + 12*math.Sin(float64(x)/23)*math.Cos(float64(y)/31) + 0.05*rng.NormFloat64()
			v = math.Round(v*100) / 100
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(v)))
		}
	}
	return b
}

// writeBench writes sets to a fresh file in dir and returns its path.
func writeBench(b *testing.B, sets []genDataset) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "bench.tet")
	writeFile(b, path, sets, nil)
	return path
}

// BenchmarkOpen100kChunks opens (maps, validates, indexes) a file whose
// index has 100,000 entries: u8 [1000 400] in chunks of [4 1].
func BenchmarkOpen100kChunks(b *testing.B) {
	spec := tetcore.DatasetSpec{Name: "tiny", DType: tetcore.U8, Shape: []int64{1000, 400}, ChunkShape: []int64{4, 1}}
	path := writeBench(b, []genDataset{{spec, make([]byte, 1000*400)}})
	f, err := tetcore.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	if n := len(f.Datasets[0].Chunks()); n != 100_000 {
		b.Fatalf("%d chunks", n)
	}
	size := f.Size()
	f.Close()
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		f, err := tetcore.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}

// readBench opens a file with the 256×256 f32 field stored raw and zstd.
func readBench(b *testing.B) (*tetcore.File, []byte) {
	field := smoothField(256, 256, 1)
	spec := func(name string, c tetcore.Codec) tetcore.DatasetSpec {
		return tetcore.DatasetSpec{Name: name, DType: tetcore.F32, Shape: []int64{256, 256}, ChunkShape: []int64{256, 256}, Codec: c}
	}
	path := writeBench(b, []genDataset{{spec("raw", tetcore.CodecRaw), field}, {spec("zstd", tetcore.CodecZstd), field}})
	f, err := tetcore.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	return f, field
}

func BenchmarkReadChunkRaw(b *testing.B) {
	f, field := readBench(b)
	ds := f.Datasets[0]
	c := &ds.Chunks()[0]
	b.SetBytes(c.RawLen)
	b.ReportAllocs()
	var sink byte
	for b.Loop() {
		out, err := f.ReadChunk(ds, c, nil)
		if err != nil || len(out) != len(field) {
			b.Fatal(err)
		}
		sink ^= out[len(out)-1]
	}
	_ = sink
}

func BenchmarkReadChunkZstd(b *testing.B) {
	f, field := readBench(b)
	ds := f.Datasets[1]
	c := &ds.Chunks()[0]
	b.SetBytes(c.RawLen)
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		out, err := f.ReadChunk(ds, c, buf)
		if err != nil || len(out) != len(field) {
			b.Fatal(err)
		}
		buf = out // reused, as scans do
	}
	b.ReportMetric(float64(c.RawLen)/float64(c.StoredLen), "ratio")
}

// BenchmarkDecodeAllBare is the reference for BenchmarkReadChunkZstd: the
// same stored bytes through a plain klauspost decoder into a reused
// buffer of exactly the raw length (so its last block takes the
// decoder's bounds-exact copies, which ReadChunk's slack avoids).
func BenchmarkDecodeAllBare(b *testing.B) {
	f, field := readBench(b)
	ds := f.Datasets[1]
	src, err := f.Stored(&ds.Chunks()[0])
	if err != nil {
		b.Fatal(err)
	}
	dec, err := zstd.NewReader(nil)
	if err != nil {
		b.Fatal(err)
	}
	defer dec.Close()
	b.SetBytes(int64(len(field)))
	b.ReportAllocs()
	buf := make([]byte, 0, len(field))
	for b.Loop() {
		out, err := dec.DecodeAll(src, buf[:0])
		if err != nil || len(out) != len(field) {
			b.Fatal(err)
		}
	}
}
