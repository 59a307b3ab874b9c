package blosc

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// fixtureFile is the part of expected.json these tests use.
type fixtureFile struct {
	File        string  `json:"file"`
	NumpyDtype  string  `json:"numpy_dtype"`
	Shape       []int64 `json:"shape"`
	Chunks      []int64 `json:"chunks"`
	Blocks      []int64 `json:"blocks"`
	Undefined   bool    `json:"values_undefined"`
	ExpectError *string `json:"expect_error"`
	OnDisk      struct {
		Regular  int `json:"regular_chunks"`
		Memcpyed int `json:"memcpyed_chunks"`
		Value    int `json:"value_chunks"`
	} `json:"on_disk"`
	Expected struct {
		Count  int64  `json:"count"`
		SHA256 string `json:"sha256_c_order_le"`
	} `json:"expected"`
}

// loadFixtures reads expected.json, skipping the test when the shared
// fixtures are not there.
func loadFixtures(t testing.TB) []fixtureFile {
	t.Helper()
	dir := fixtureDir()
	if dir == "" {
		t.Skip("fixtures not present (set B2ND_FIXTURES)")
	}
	b, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Files []fixtureFile `json:"files"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Files
}

// TestFixtures decodes every chunk of every fixture, lays the elements out
// in C order (spec §7.1) and compares their SHA-256 with expected.json; it
// also checks the kinds of chunks the generator counted.
func TestFixtures(t *testing.T) {
	for _, fx := range loadFixtures(t) {
		t.Run(fx.File, func(t *testing.T) {
			f, err := readTestFrame(filepath.Join(fixtureDir(), fx.File))
			if err != nil {
				t.Fatal(err)
			}
			var regular, memcpyed, value int
			chunks := make([][]byte, len(f.chunks))
			for i, c := range f.chunks {
				if c.special == 0 {
					h, err := ParseHeader(c.raw)
					if err != nil {
						t.Fatalf("chunk %d: %v", i, err)
					}
					switch {
					case h.Special == SpecialValue:
						value++
					case h.Memcpyed:
						memcpyed++
					case h.Special == SpecialNone:
						regular++
					}
				}
				if chunks[i], err = f.decodeChunk(c); err != nil {
					t.Fatalf("chunk %d: %v", i, err)
				}
			}
			if regular != fx.OnDisk.Regular || memcpyed != fx.OnDisk.Memcpyed || value != fx.OnDisk.Value {
				t.Errorf("regular/memcpyed/value chunks %d/%d/%d, want %d/%d/%d", regular, memcpyed, value,
					fx.OnDisk.Regular, fx.OnDisk.Memcpyed, fx.OnDisk.Value)
			}
			if fx.ExpectError != nil || fx.Undefined {
				return // values not comparable; decoding without error is the check
			}
			vals, n := cOrder(t, f, chunks, fx)
			if n != fx.Expected.Count {
				t.Errorf("count %d, want %d", n, fx.Expected.Count)
			}
			sum := sha256.Sum256(vals)
			if got := hex.EncodeToString(sum[:]); got != fx.Expected.SHA256 {
				t.Errorf("sha256 of the values %s, want %s", got, fx.Expected.SHA256)
			}
		})
	}
}

// cOrder gathers the logical elements of the decoded chunks in C order as
// little-endian bytes, following spec §7.1.
func cOrder(t *testing.T, f *testFrame, chunks [][]byte, fx fixtureFile) ([]byte, int64) {
	nd := len(fx.Shape)
	ts := f.typesize
	count := int64(1)
	grid := make([]int64, nd)
	bgrid := make([]int64, nd)
	for d := 0; d < nd; d++ {
		count *= fx.Shape[d]
		grid[d] = (fx.Shape[d] + fx.Chunks[d] - 1) / fx.Chunks[d]
		bgrid[d] = (fx.Chunks[d] + fx.Blocks[d] - 1) / fx.Blocks[d]
	}
	bprod := int64(1)
	for _, b := range fx.Blocks {
		bprod *= b
	}
	out := make([]byte, 0, count*int64(ts))
	x := make([]int64, nd)
	for k := int64(0); k < count; k++ {
		var chunk, blk, el int64
		for d := 0; d < nd; d++ {
			r := x[d] % fx.Chunks[d]
			chunk = chunk*grid[d] + x[d]/fx.Chunks[d]
			blk = blk*bgrid[d] + r/fx.Blocks[d]
			el = el*fx.Blocks[d] + r%fx.Blocks[d]
		}
		pos := (blk*bprod + el) * int64(ts)
		if chunk >= int64(len(chunks)) || pos+int64(ts) > int64(len(chunks[chunk])) {
			t.Fatalf("element %v outside the chunks", x)
		}
		v := chunks[chunk][pos : pos+int64(ts)]
		if len(fx.NumpyDtype) > 0 && fx.NumpyDtype[0] == '>' {
			for i := ts - 1; i >= 0; i-- {
				out = append(out, v[i])
			}
		} else {
			out = append(out, v...)
		}
		for d := nd - 1; d >= 0; d-- {
			if x[d]++; x[d] < fx.Shape[d] {
				break
			}
			x[d] = 0
		}
	}
	return out, count
}

// TestFixturesConcurrent decodes the same chunks from several goroutines
// at once (the zstd decoder is shared): run with -race.
func TestFixturesConcurrent(t *testing.T) {
	dir := fixtureDir()
	if dir == "" {
		t.Skip("fixtures not present")
	}
	var frames []*testFrame
	for _, name := range []string{"codec_zstd", "zstd_dict", "codec_zlib", "filter_delta_shuffle", "codec_blosclz"} {
		f, err := readTestFrame(filepath.Join(dir, name+".b2nd"))
		if err != nil {
			t.Fatal(err)
		}
		frames = append(frames, f)
	}
	want := make([][][]byte, len(frames))
	for i, f := range frames {
		for _, c := range f.chunks {
			b, err := f.decodeChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			want[i] = append(want[i], b)
		}
	}
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		go func() {
			for rep := 0; rep < 5; rep++ {
				for i, f := range frames {
					for k, c := range f.chunks {
						b, err := f.decodeChunk(c)
						if err == nil && !bytes.Equal(b, want[i][k]) {
							err = fmt.Errorf("frame %d chunk %d differs", i, k)
						}
						if err != nil {
							errs <- err
							return
						}
					}
				}
			}
			errs <- nil
		}()
	}
	for g := 0; g < 4; g++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
