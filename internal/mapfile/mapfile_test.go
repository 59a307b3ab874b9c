package mapfile_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/mapfile"
)

// pattern is n bytes that differ from page to page and within a page.
func pattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i/4093)
	}
	return b
}

// writeTemp writes data to a fresh file and returns its path.
func writeTemp(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "m.bin")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// open maps path and closes the mapping when the test ends.
func open(t *testing.T, path string) *mapfile.File {
	t.Helper()
	f, err := mapfile.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// snapshot copies the whole mapping out under Guard.
func snapshot(t *testing.T, f *mapfile.File) []byte {
	t.Helper()
	out := make([]byte, len(f.Data()))
	n, err := f.Copy(out, f.Data())
	if err != nil || n != len(out) {
		t.Fatalf("Copy: %d of %d bytes, %v", n, len(out), err)
	}
	return out
}

func TestOpen_mapsContents(t *testing.T) {
	for _, n := range []int{1, 4095, 4096, 3*4096 + 17} {
		want := pattern(n)
		path := writeTemp(t, want)
		f := open(t, path)
		if f.Path() != path {
			t.Errorf("%d bytes: Path %q, want %q", n, f.Path(), path)
		}
		if got := snapshot(t, f); !bytes.Equal(got, want) {
			t.Errorf("%d bytes: mapping differs from the file", n)
		}
		if f.Closed() {
			t.Errorf("%d bytes: Closed before Close", n)
		}
	}
}

// TestOpen_empty: an empty file has no mapping; Guard still runs read
// and Copy copies (nothing from the file).
func TestOpen_empty(t *testing.T) {
	f := open(t, writeTemp(t, nil))
	if f.Data() != nil {
		t.Fatalf("Data of an empty file: %v, want nil", f.Data())
	}
	ran := 0
	if err := f.Guard(func() { ran++ }); err != nil || ran != 1 {
		t.Errorf("Guard: ran %d times, %v", ran, err)
	}
	dst := make([]byte, 2)
	if n, err := f.Copy(dst, []byte("xyz")); n != 2 || err != nil || string(dst) != "xy" {
		t.Errorf("Copy: %d %v %q", n, err, dst)
	}
	if err := f.CheckUnchanged(); err != nil {
		t.Errorf("CheckUnchanged: %v", err)
	}
	f.EvictRange(0, 1<<20) // nothing mapped: nothing to do
	if err := f.Acquire(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Errorf("Close while pinned: %v", err)
	}
	f.Release()
}

func TestOpen_errors(t *testing.T) {
	dir := t.TempDir()
	if _, err := mapfile.Open(dir); !errors.Is(err, array.ErrNotRegular) {
		t.Errorf("directory: %v, want ErrNotRegular", err)
	}
	if _, err := mapfile.Open(filepath.Join(dir, "absent")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v, want ErrNotExist", err)
	}
}

func TestClose_idempotent(t *testing.T) {
	f, err := mapfile.Open(writeTemp(t, pattern(100)))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if err := f.Close(); err != nil {
			t.Errorf("Close #%d: %v", i+1, err)
		}
		if !f.Closed() {
			t.Errorf("Closed after Close #%d is false", i+1)
		}
	}
	if err := f.Acquire(); !errors.Is(err, array.ErrClosed) {
		t.Errorf("Acquire after Close: %v, want ErrClosed", err)
	}
}

// TestClose_whilePinned: Close with pins held keeps the mapping readable
// and refuses new pins; the last Release unmaps. (Whether it unmapped is
// seen through EvictRange being a no-op and, on Linux, the mapping
// leaving /proc/self/maps: see TestRelease_unmaps.)
func TestClose_whilePinned(t *testing.T) {
	want := pattern(3 * 4096)
	f, err := mapfile.Open(writeTemp(t, want))
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := f.Acquire(); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if !f.Closed() {
		t.Error("Closed is false after Close")
	}
	if err := f.Acquire(); !errors.Is(err, array.ErrClosed) {
		t.Errorf("Acquire after Close: %v, want ErrClosed", err)
	}
	if got := snapshot(t, f); !bytes.Equal(got, want) {
		t.Error("mapping differs after Close with two pins")
	}
	f.Release()
	if got := snapshot(t, f); !bytes.Equal(got, want) {
		t.Error("mapping differs after Close with one pin left")
	}
	f.Release() // unmaps: f.Data() must not be read from here on
	if err := f.Close(); err != nil {
		t.Errorf("Close after the last Release: %v", err)
	}
}

// TestAcquire_changed: a pin is refused, with ErrChanged, once the path
// names another file; ErrClosed is not claimed for an open file.
func TestAcquire_changed(t *testing.T) {
	path := writeTemp(t, pattern(5000))
	f := open(t, path)
	if err := f.Acquire(); err != nil {
		t.Fatal(err)
	}
	f.Release()
	next := filepath.Join(filepath.Dir(path), "next.bin")
	if err := os.WriteFile(next, pattern(6000), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(next, path); err != nil {
		t.Fatal(err)
	}
	err := f.Acquire()
	if !errors.Is(err, array.ErrChanged) || errors.Is(err, array.ErrClosed) {
		t.Errorf("Acquire after the file was replaced: %v, want ErrChanged", err)
	}
	if err == nil {
		f.Release()
	}
}

// TestAcquire_concurrent pins and reads from several goroutines while
// another closes the file (run with -race): every read that got a pin
// sees the file's bytes, and every refused pin says ErrClosed.
func TestAcquire_concurrent(t *testing.T) {
	want := pattern(8 * 4096)
	f, err := mapfile.Open(writeTemp(t, want))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			buf := make([]byte, len(want))
			for range 50 {
				if err := f.Acquire(); err != nil {
					if !errors.Is(err, array.ErrClosed) {
						t.Error(err)
					}
					return
				}
				if _, err := f.Copy(buf, f.Data()); err != nil || !bytes.Equal(buf, want) {
					t.Errorf("read under a pin: %v", err)
				}
				f.EvictRange(0, uint64(len(want)))
				f.Release()
			}
		}()
	}
	close(start)
	if err := f.Close(); err != nil {
		t.Error(err)
	}
	wg.Wait()
	if err := f.Acquire(); !errors.Is(err, array.ErrClosed) {
		t.Errorf("Acquire after Close: %v", err)
	}
}

// TestFromBytes: caller bytes behave as a mapping that cannot fault or
// change: Guard runs read (no fault conversion, so a panic passes), the
// change check and eviction do nothing, and pins and Close count as for
// a mapping.
func TestFromBytes(t *testing.T) {
	data := pattern(3 * 4096)
	f := mapfile.FromBytes(data)
	if &f.Data()[0] != &data[0] || len(f.Data()) != len(data) || f.Path() != "" {
		t.Fatalf("Data/Path: %d bytes, %q; want the caller's %d bytes, \"\"", len(f.Data()), f.Path(), len(data))
	}
	if got := snapshot(t, f); !bytes.Equal(got, data) {
		t.Error("Copy differs from the bytes")
	}
	if err := f.CheckUnchanged(); err != nil {
		t.Errorf("CheckUnchanged: %v", err)
	}
	f.EvictRange(0, 1<<62)
	if !bytes.Equal(data, pattern(len(data))) {
		t.Error("EvictRange changed the caller's bytes")
	}
	if f.Released() {
		t.Error("Released before Close")
	}
	if err := f.Acquire(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if f.Released() || !f.Closed() {
		t.Errorf("Close while pinned: Released %v Closed %v, want false true", f.Released(), f.Closed())
	}
	if err := f.Acquire(); !errors.Is(err, array.ErrClosed) || err.Error() != array.ErrClosed.Error() {
		t.Errorf("Acquire after Close: %v, want ErrClosed (no empty path in the message)", err)
	}
	f.Release()
	if !f.Released() {
		t.Error("not Released after Close and the last Release")
	}
}

// TestReleased follows Released through the life of a mapping.
func TestReleased(t *testing.T) {
	f, err := mapfile.Open(writeTemp(t, pattern(10)))
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name     string
		do       func()
		released bool
	}{
		{"open", func() {}, false},
		{"pinned", func() { _ = f.Acquire() }, false},
		{"closed while pinned", func() { f.Close() }, false},
		{"last pin released", f.Release, true},
		{"closed again", func() { f.Close() }, true},
	}
	for _, s := range steps {
		s.do()
		if got := f.Released(); got != s.released {
			t.Errorf("%s: Released %v, want %v", s.name, got, s.released)
		}
	}
}
