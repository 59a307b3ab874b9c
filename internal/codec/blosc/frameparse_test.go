package blosc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// frameSeeds are frames to mutate: the super-chunks of testdata and, when
// present, a few N-d fixtures (attributes, special chunks, rank 0, an
// empty axis, caterva, a run-of-value chunk, big-endian).
func frameSeeds(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	read := func(p string) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = b
	}
	for _, tc := range superChunks {
		read(filepath.Join("testdata", tc.file))
	}
	if dir := fixtureDir(); dir != "" {
		for _, name := range []string{"attrs_dim_names.b2nd", "special_mixed.b2nd", "rank0.b2nd",
			"empty_axis.b2nd", "caterva_int32.b2nd", "special_value_i2.b2nd", "dtype_be_int32.b2nd"} {
			read(filepath.Join(dir, name))
		}
	}
	return out
}

// checkFrame asserts what a parsed Frame promises, whatever the input:
// one chunk per chunksize of nbytes, stored chunks inside the frame and
// handed out, and decoding (when small enough) either failing or giving
// exactly nbytes.
func checkFrame(t testing.TB, f *Frame, data []byte) {
	t.Helper()
	var total int64
	for i, c := range f.Chunks {
		n := f.ChunkLen(i)
		if n <= 0 || n > f.ChunkSize {
			t.Fatalf("chunk %d of %d bytes, chunksize %d", i, n, f.ChunkSize)
		}
		total += n
		if c.Kind != ChunkStored {
			continue
		}
		if c.Offset < 0 || c.Size < 16 || c.Offset+c.Size > int64(len(data)) {
			t.Fatalf("chunk %d [%d, +%d) outside %d bytes", i, c.Offset, c.Size, len(data))
		}
		if b, err := f.ChunkBytes(i); err != nil || int64(len(b)) != c.Size {
			t.Fatalf("chunk %d of a parsed frame: %d bytes, %v", i, len(b), err)
		}
	}
	if total != f.NBytes || len(f.Chunks) > MaxChunks || len(f.VLMeta) != len(f.VLMetaNames) || len(f.Metalayers) != len(f.MetalayerNames) {
		t.Fatalf("%d chunks of %d bytes in all, nbytes %d", len(f.Chunks), total, f.NBytes)
	}
	if f.NBytes <= 1<<22 {
		if out, err := f.Decode(1 << 22); err == nil && int64(len(out)) != f.NBytes {
			t.Fatalf("decoded %d bytes, nbytes %d", len(out), f.NBytes)
		}
	}
}

// TestParseFrame_everyPrefixAndByte: every prefix of a frame is refused,
// and flipping any single byte either still parses into a frame keeping
// its promises or fails with an error wrapping a sentinel; never a panic.
func TestParseFrame_everyPrefixAndByte(t *testing.T) {
	sentinels := []error{ErrCorrupt, ErrTruncated, ErrUnsupported, ErrTooLarge}
	for name, good := range frameSeeds(t) {
		for n := 0; n < len(good); n++ {
			if _, err := ParseFrame(good[:n]); err == nil {
				t.Fatalf("%s: prefix of %d bytes accepted", name, n)
			}
		}
		for i := range good {
			b := bytes.Clone(good)
			b[i] ^= 0xff
			f, err := ParseFrame(b)
			if err == nil {
				checkFrame(t, f, b)
				continue
			}
			known := false
			for _, s := range sentinels {
				known = known || errors.Is(err, s)
			}
			if !known {
				t.Fatalf("%s: byte %d flipped: %v wraps no sentinel", name, i, err)
			}
		}
	}
}

// TestParseFrame_attributeSize: an attribute chunk claiming a gigabyte is
// refused before anything of that size is allocated.
func TestParseFrame_attributeSize(t *testing.T) {
	dir := fixtureDir()
	if dir == "" {
		t.Skip("fixtures not present (set B2ND_FIXTURES)")
	}
	b, err := os.ReadFile(filepath.Join(dir, "attrs_dim_names.b2nd"))
	if err != nil {
		t.Fatal(err)
	}
	tl := int(binary.BigEndian.Uint32(b[len(b)-22:]))
	start := len(b) - tl
	s, err := parseSection(b, int64(start+2), int64(len(b)-trailerTail), int64(start), "vlmetalayers")
	if err != nil {
		t.Fatal(err)
	}
	c := s.contents["units"]
	at := cap(b) - cap(c) // the chunk's position in b
	binary.LittleEndian.PutUint32(b[at+4:], 1<<30)
	_, err = ParseFrame(b)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), `attribute "units"`) {
		t.Fatalf("err = %v, want ErrTooLarge naming the attribute", err)
	}
}

// TestParseFrame_metalayers: an N-d fixture's metalayer and attributes
// come out raw and decoded, in the frame's order.
func TestParseFrame_metalayers(t *testing.T) {
	b := frameSeeds(t)["attrs_dim_names.b2nd"]
	if b == nil {
		t.Skip("fixtures not present (set B2ND_FIXTURES)")
	}
	f, err := ParseFrame(b)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(f.MetalayerNames, ",") != "b2nd" || len(f.Metalayers["b2nd"]) == 0 || f.Metalayers["b2nd"][0] != 0x97 {
		t.Errorf("metalayers %q, b2nd content % x", f.MetalayerNames, f.Metalayers["b2nd"])
	}
	if strings.Join(f.VLMetaNames, ",") != "dim_names,units,scale,levels_hpa" || f.VLMeta["units"] != "degC" || f.VLMeta["scale"] != 0.5 {
		t.Errorf("vlmeta %q: %v", f.VLMetaNames, f.VLMeta)
	}
}

// FuzzParseFrame: any input either parses into a Frame keeping its
// promises (checkFrame) or fails with an error; never a panic, a hang or
// an allocation sized by an unchecked field.
func FuzzParseFrame(f *testing.F) {
	for _, b := range frameSeeds(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fr, err := ParseFrame(data)
		if err != nil {
			return
		}
		checkFrame(t, fr, data)
	})
}
