package scan_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/scan"
)

// TestRegistry_sharesAndReopens: a path is opened once and shared; once
// its file changed on disk the next Open opens it afresh, the stale
// source staying open for the handles that hold it; the last Close of
// each closes it.
func TestRegistry_sharesAndReopens(t *testing.T) {
	var opens atomic.Int64
	reg := scan.NewRegistry([]array.Format{fakeFormat{&opens}})
	path := writeFake(t, fakeHeader{Shape: []int64{4}, Chunk: []int64{2}})
	h1, err := reg.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	h2, err := reg.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(path)
	if h1.Source() != h2.Source() || opens.Load() != 1 || h1.Path() != abs || h1.Source().Format().Name() != "fake" {
		t.Fatalf("two opens: sources %p %p, %d format opens, path %q", h1.Source(), h2.Source(), opens.Load(), h1.Path())
	}
	old := h1.Source().Underlying().(*fakeSource).st
	old.changed.Store(true)
	h3, err := reg.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer h3.Close()
	if h3.Source() == h1.Source() || opens.Load() != 2 {
		t.Fatalf("after a change: same source %v, %d format opens", h3.Source() == h1.Source(), opens.Load())
	}
	if got := reg.OpenPaths(); len(got) != 2 || got[0] != abs || got[1] != abs {
		t.Fatalf("OpenPaths %v, want the path twice", got)
	}
	h1.Close()
	h1.Close() // idempotent
	if old.closed.Load() {
		t.Fatal("stale source closed while a handle holds it")
	}
	h2.Close()
	if !old.closed.Load() || len(reg.OpenPaths()) != 1 {
		t.Fatalf("after its last handle: closed %v, open %v", old.closed.Load(), reg.OpenPaths())
	}
}

// TestRegistry_refuses: a file no format recognises, a directory, a
// device and a FIFO are refused with errors naming them; the FIFO's
// open does not block.
func TestRegistry_refuses(t *testing.T) {
	reg := scan.NewRegistry([]array.Format{fakeFormat{}})
	dir := t.TempDir()
	other := filepath.Join(dir, "x.fake") // the name does not matter, the bytes do
	os.WriteFile(other, []byte("NOPE{}"), 0o644)
	empty := filepath.Join(dir, "empty.fake")
	os.WriteFile(empty, nil, 0o644)
	for _, p := range []string{other, empty} {
		if _, err := reg.Open(p); !errors.Is(err, array.ErrUnknownFormat) || !strings.Contains(err.Error(), p) ||
			!strings.Contains(err.Error(), "none of: fake") {
			t.Errorf("%s: %v, want ErrUnknownFormat naming the path and the formats tried", p, err)
		}
	}
	for _, p := range []string{dir, "/dev/null"} {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		if _, err := reg.Open(p); !errors.Is(err, array.ErrNotRegular) {
			t.Errorf("%s: %v, want ErrNotRegular", p, err)
		}
	}
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	done := make(chan error, 1)
	go func() { _, err := reg.Open(fifo); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, array.ErrNotRegular) || !strings.Contains(err.Error(), "FIFO") {
			t.Errorf("FIFO: %v", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("opening a FIFO hung")
	}
	if len(reg.OpenPaths()) != 0 {
		t.Errorf("refused opens left %v open", reg.OpenPaths())
	}
}

// TestSession_ids: sessions of one registry are numbered from 1.
func TestSession_ids(t *testing.T) {
	reg := scan.NewRegistry(nil)
	a, b := scan.NewSession(reg), scan.NewSession(reg)
	if a.ID != 1 || b.ID != 2 || a.Registry != reg || a.String() != "session 1" {
		t.Fatalf("ids %d %d, %v", a.ID, b.ID, a)
	}
}
