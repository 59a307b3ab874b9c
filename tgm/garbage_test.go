package tgm

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/array"
)

// TestOpen_damagedMagic: a flipped byte in a message's magic hides the
// message from the scan, which would renumber every later message; the
// format refuses the file, naming the byte. Zero bytes between messages
// pass for padding.
func TestOpen_damagedMagic(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "many.tgm"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Scan(data)
	if err != nil || len(f.Messages) < 6 {
		t.Fatalf("scan: %v", err)
	}
	dir := t.TempDir()
	open := func(b []byte) (array.Source, error) {
		p := filepath.Join(dir, "x.tgm")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return Format.Open(p, array.Options{})
	}
	bad := bytes.Clone(data)
	at := f.Messages[5].Offset
	bad[at] ^= 1
	if src, err := open(bad); err == nil || !errors.Is(err, array.ErrCorrupt) || !strings.Contains(err.Error(), "in no message") {
		if src != nil {
			src.Close()
		}
		t.Fatalf("damaged magic of message 5: %v, want refused", err)
	}
	// The same file with zero padding between two messages opens, with
	// every message.
	padded := append(append(bytes.Clone(data[:at]), make([]byte, 16)...), data[at:]...)
	src, err := open(padded)
	if err != nil {
		t.Fatalf("zero padding: %v", err)
	}
	defer src.Close()
	if got := src.(*Source).File(); len(got.Messages) != len(f.Messages) || got.Skipped != 16 || got.Garbage != -1 {
		t.Errorf("zero padding: %d messages, %d skipped, garbage at %d", len(got.Messages), got.Skipped, got.Garbage)
	}
}

// TestNormalize_keyCollision: the integer key 1 and the text key "1"
// become the same JSON key; the text key's value wins every time,
// whatever order Go walks the map in.
func TestNormalize_keyCollision(t *testing.T) {
	for range 50 {
		m := normalize(map[any]any{uint64(1): "int", "1": "text", "a": uint64(2)}).(map[string]any)
		if m["1"] != "text" || m["a"] != int64(2) || len(m) != 2 {
			t.Fatalf("%v, want 1 → text", m)
		}
	}
}
