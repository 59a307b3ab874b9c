package blosc

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// pyFrames writes super-chunks of random sizes, typesizes, chunk sizes,
// codecs and filters, each as NAME.b2frame with its data as NAME.raw.
const pyFrames = `
import random, sys, blosc2
random.seed(int(sys.argv[2]))
codecs = [blosc2.Codec.BLOSCLZ, blosc2.Codec.LZ4, blosc2.Codec.LZ4HC, blosc2.Codec.ZLIB, blosc2.Codec.ZSTD]
filters = [blosc2.Filter.NOFILTER, blosc2.Filter.SHUFFLE, blosc2.Filter.BITSHUFFLE, blosc2.Filter.BYTEDELTA]
for k in range(24):
    ts = random.choice([1, 2, 4, 8])
    n = random.randrange(0, 40000) // ts * ts
    run = bytes(j // 5 % 256 for j in range(1280))
    data = (run * (n // len(run) + 1))[:n] if k % 2 else random.randbytes(n)
    cs = random.choice([64, 1000, 4096, 16384]) // ts * ts
    cp = {"typesize": ts, "codec": random.choice(codecs), "clevel": random.randrange(1, 10),
          "filters": [random.choice(filters)]}
    s = blosc2.SChunk(chunksize=cs, data=data, cparams=cp)
    open(f"{sys.argv[1]}/f{k}.b2frame", "wb").write(s.to_cframe())
    open(f"{sys.argv[1]}/f{k}.raw", "wb").write(data)
`

// TestDecodeFrame_python: super-chunks python-blosc2 writes, of every
// codec and filter and of sizes that rarely fill the last chunk, decode to
// their data. Skipped without python3 and blosc2.
func TestDecodeFrame_python(t *testing.T) {
	if err := exec.Command("python3", "-c", "import blosc2").Run(); err != nil {
		t.Skip("python3 with blosc2 not available:", err)
	}
	dir := t.TempDir()
	if out, err := exec.Command("python3", "-c", pyFrames, dir, "17").CombinedOutput(); err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	for k := range 24 {
		name := filepath.Join(dir, fmt.Sprintf("f%d", k))
		frame, err := os.ReadFile(name + ".b2frame")
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(name + ".raw")
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeFrame(frame, 1<<20)
		if err != nil {
			t.Fatalf("f%d: %v", k, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("f%d: decoded %d bytes, want %d (first difference at %d)", k, len(got), len(want), firstDiff(got, want))
		}
	}
}
