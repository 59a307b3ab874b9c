package tgm

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql/array"
)

// fuzzLimit bounds what one object may decode to in the hostile-input
// tests: small, so a lying shape cannot make them slow.
const fuzzLimit = 1 << 20

// exercise scans data and decodes and verifies everything it can,
// failing on an error that wraps none of the sentinels (a panic fails the
// test by itself).
func exercise(t testing.TB, data []byte) {
	f, err := Scan(data)
	checkSentinel(t, "Scan", err)
	if err != nil {
		return
	}
	for mi := range f.Messages {
		m := &f.Messages[mi]
		_ = JSON(m.Metadata)
		for oi := range m.Objects {
			o := &m.Objects[oi]
			_ = JSON(o.Metadata)
			out, err := o.Decode(nil, fuzzLimit)
			checkSentinel(t, "Decode", err)
			if err == nil && int64(len(out)) != o.DecodedBytes() {
				t.Fatalf("message %d object %d: %d bytes decoded, DecodedBytes %d", mi, oi, len(out), o.DecodedBytes())
			}
		}
	}
	checkSentinel(t, "Verify", f.Verify())
}

func checkSentinel(t testing.TB, what string, err error) {
	if err == nil {
		return
	}
	for _, s := range []error{array.ErrCorrupt, array.ErrTruncated, array.ErrUnsupported, array.ErrTooLarge} {
		if errors.Is(err, s) {
			return
		}
	}
	t.Fatalf("%s: error wraps no sentinel: %v", what, err)
}

// smallFixtures are fixtures small enough to cut at every length.
var smallFixtures = []string{"mixed.tgm", "streaming_nohash.tgm", "shapes.tgm", "dtypes_complex.tgm"}

// TestTruncatedEverywhere cuts small files at every length: a cut inside
// a message is an error, never a panic; a cut at a message boundary
// reads the messages before it.
func TestTruncatedEverywhere(t *testing.T) {
	for _, name := range smallFixtures {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		full, err := Scan(data)
		if err != nil {
			t.Fatal(err)
		}
		ends := map[int]int{} // message end offset -> messages before it
		for i, m := range full.Messages {
			ends[int(m.Offset+m.Length)] = i + 1
		}
		for n := 0; n < len(data); n++ {
			cut := data[:n:n] // no capacity past the cut: reading it would fault under the race detector's bounds checks
			f, err := Scan(cut)
			if want, atEnd := ends[n]; atEnd {
				if err != nil || len(f.Messages) != want {
					t.Fatalf("%s cut at %d (a message boundary): %v", name, n, err)
				}
				continue
			}
			if err == nil {
				t.Fatalf("%s cut at %d: no error (%d messages)", name, n, len(f.Messages))
			}
			if !errors.Is(err, array.ErrTruncated) && !errors.Is(err, array.ErrCorrupt) {
				t.Fatalf("%s cut at %d: %v", name, n, err)
			}
		}
	}
}

// TestByteFlips flips every byte of small files in turn: the result is
// whatever it is, but an error wraps a sentinel and nothing panics. A flip
// in a hashed frame's body is caught by its hash.
func TestByteFlips(t *testing.T) {
	for _, name := range append([]string{"masks.tgm", "preceder.tgm"}, smallFixtures...) {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, len(data))
		for i := range data {
			copy(buf, data)
			buf[i] ^= []byte{0xFF, 0x01, 0x80}[i%3] // all bits, the lowest, the highest
			exercise(t, buf)
		}
	}
}

// TestHashedFlipsAreCaught flips each byte of every hashed data object's
// body in forecast.tgm: decoding that object must fail with a hash
// mismatch, never return values.
func TestHashedFlipsAreCaught(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "forecast.tgm"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Scan(data)
	if err != nil {
		t.Fatal(err)
	}
	o := f.Messages[1].Objects[2]
	if !o.Hashed() {
		t.Fatal("forecast.tgm object has no hash")
	}
	start := o.FrameOffset + frameHeaderSize
	end := o.FrameOffset + o.FrameLength - dataFooterSize
	buf := make([]byte, len(data))
	for i := start; i < end; i++ {
		copy(buf, data)
		buf[i] ^= 0x10
		g, err := Scan(buf)
		if err == nil { // else the descriptor no longer parses, and the scan says why
			_, err = g.Messages[1].Objects[2].Decode(nil, 0)
		}
		wantErr(t, err, array.ErrCorrupt, "hash mismatch")
	}
}

// FuzzScan feeds arbitrary bytes to Scan and everything after it.
func FuzzScan(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.tgm"))
	for _, p := range seeds {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		exercise(t, data)
	})
}

// FuzzDecode fuzzes one data object: the bytes are a frame body (payload
// region and descriptor) wrapped in a valid message, so the fuzzer works
// on descriptors, masks and payloads rather than on framing.
func FuzzDecode(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.tgm"))
	for _, p := range seeds {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		file, err := Scan(data)
		if err != nil {
			continue
		}
		for _, m := range file.Messages {
			for _, o := range m.Objects {
				fr := o.frame
				body := fr.body(m.data)
				cborAt := binRead64(m.data[fr.Offset+fr.Length-20:]) - frameHeaderSize
				f.Add(body, cborAt, fr.Flags&frameFlagCBORAfter != 0)
			}
		}
	}
	f.Fuzz(func(t *testing.T, body []byte, cborAt uint64, after bool) {
		fr := tframe{typ: FrameDataObject, body: body, cborAt: cborAt + frameHeaderSize, hash: true}
		if after {
			fr.flags = frameFlagCBORAfter
		}
		exercise(t, message([]tframe{fr}, false, 0))
	})
}

// binRead64 reads a big-endian u64.
func binRead64(b []byte) uint64 { return binary.BigEndian.Uint64(b) }
