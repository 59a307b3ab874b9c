package tgm

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/mapfile"
)

// TestSourceHostile opens damaged copies of forecast.tgm (every byte
// flipped in turn, every length cut) and reads every chunk: each open
// and each read either succeeds or fails with an array sentinel, never a
// panic; a cut inside a message never opens; and a flipped byte inside a
// hashed data object never reads as values.
func TestSourceHostile(t *testing.T) {
	orig, err := os.ReadFile(filepath.Join("testdata", "forecast.tgm"))
	if err != nil {
		t.Fatal(err)
	}
	ref, err := Scan(orig)
	if err != nil {
		t.Fatal(err)
	}
	sentinel := func(err error) bool {
		for _, s := range []error{array.ErrCorrupt, array.ErrTruncated, array.ErrUnsupported, array.ErrTooLarge} {
			if errors.Is(err, s) {
				return true
			}
		}
		return false
	}
	try := func(data []byte) (opened bool, reads []error) {
		s, err := newSource(mapfile.FromBytes(data), "x.tgm", array.Options{MaxChunkBytes: 1 << 20})
		if err != nil {
			if !sentinel(err) {
				t.Fatalf("open: %v wraps no sentinel", err)
			}
			return false, nil
		}
		defer s.Close()
		for _, a := range s.Arrays() {
			for id := range a.Info().ChunkCount() {
				_, err := a.ReadChunk(id, nil)
				if err != nil && !sentinel(err) {
					t.Fatalf("read: %v wraps no sentinel", err)
				}
				reads = append(reads, err)
			}
		}
		_, _ = s.Verify(true, 0)
		return true, reads
	}
	boundary := map[int]bool{}
	for _, m := range ref.Messages {
		boundary[int(m.Offset+m.Length)] = true
	}
	for cut := 1; cut < len(orig); cut++ {
		if opened, _ := try(orig[:cut]); opened && !boundary[cut] {
			t.Errorf("cut at %d (inside a message) opened", cut)
		}
	}
	for _, m := range ref.Messages {
		for _, o := range m.Objects {
			if !o.Hashed() {
				continue
			}
			// Flip a byte of the payload: the hash must refuse it.
			pos := int(o.FrameOffset) + 16 + int(o.frame.Length)/2 - 16
			bad := append([]byte(nil), orig...)
			bad[pos] ^= 0x40
			if opened, reads := try(bad); opened {
				failed := 0
				for _, err := range reads {
					if err != nil {
						failed++
					}
				}
				if failed != 1 {
					t.Errorf("byte %d of message %d object %d flipped: %d reads failed, want 1", pos, m.Index, o.Index, failed)
				}
			}
		}
	}
	if testing.Short() {
		return
	}
	for pos := range orig {
		bad := append([]byte(nil), orig...)
		bad[pos] ^= 0xff
		try(bad)
	}
}
