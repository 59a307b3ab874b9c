//go:build unix

package mapfile_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/mapfile"
)

// truncated maps a file of n bytes and then truncates it to nothing:
// every page of the mapping is then past the end of the file, and
// reading one raises SIGBUS.
func truncated(t *testing.T, n int) (*mapfile.File, string) {
	t.Helper()
	path := writeTemp(t, pattern(n))
	f := open(t, path)
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	return f, path
}

// TestGuard_truncatedWhileMapped: a read of a truncated mapping under
// Guard or Copy fails with "file X was truncated while in use", wrapping
// ErrChanged, instead of killing the process; the goroutine's
// panic-on-fault setting is restored either way.
func TestGuard_truncatedWhileMapped(t *testing.T) {
	f, path := truncated(t, 4*4096)
	data := f.Data()
	var sum byte
	reached := false
	err := f.Guard(func() {
		for _, b := range data[2*4096:] {
			sum += b
		}
		reached = true
	})
	checkTruncated(t, "Guard", err, path)
	if reached {
		t.Error("the read ran to its end after the fault")
	}
	n, err := f.Copy(make([]byte, len(data)), data)
	checkTruncated(t, "Copy", err, path)
	if n != 0 {
		t.Errorf("Copy reported %d bytes copied from a faulting source", n)
	}
	err = mapfile.Guard(data, path, func() { sum += data[len(data)-1] })
	checkTruncated(t, "package Guard", err, path)
	if debug.SetPanicOnFault(false) {
		t.Error("panic-on-fault left on after Guard")
	}
	if err := f.CheckUnchanged(); !errors.Is(err, array.ErrChanged) {
		t.Errorf("CheckUnchanged after truncation: %v", err)
	}
	if err := f.Acquire(); !errors.Is(err, array.ErrChanged) {
		t.Errorf("Acquire after truncation: %v", err)
	}
}

// sink keeps a test's read of the mapping from being optimised away.
var sink byte

func checkTruncated(t *testing.T, what string, err error, path string) {
	t.Helper()
	want := "file " + path + " was truncated while in use"
	if !errors.Is(err, array.ErrChanged) || !strings.Contains(err.Error(), want) {
		t.Errorf("%s: %v; want %q wrapping ErrChanged", what, err, want)
	}
}

// TestGuard_faultElsewhere: only a fault inside the guarded mapping is
// converted. A fault in another file's mapping passes through as the
// runtime's panic (whoever guards that mapping must catch it).
func TestGuard_faultElsewhere(t *testing.T) {
	other, _ := truncated(t, 4096)
	f := open(t, writeTemp(t, pattern(4096)))
	bad := other.Data()
	defer func() {
		r := recover()
		if _, ok := r.(interface{ Addr() uintptr }); !ok {
			t.Errorf("recovered %v (%T), want the runtime's fault", r, r)
		}
		if debug.SetPanicOnFault(false) {
			t.Error("panic-on-fault left on after Guard")
		}
	}()
	err := f.Guard(func() { sink = bad[0] })
	t.Errorf("fault outside the mapping returned %v instead of panicking", err)
}

// TestGuard_otherPanicsPass: Guard converts only faults on the mapping;
// any other panic reaches the caller unchanged, and the goroutine's
// panic-on-fault setting is restored.
func TestGuard_otherPanicsPass(t *testing.T) {
	f := open(t, writeTemp(t, pattern(4096)))
	var nilMap map[int]int
	var nilArr *[64]byte
	for _, tc := range []struct {
		name string
		fn   func()
		want string // in the recovered value's text
	}{
		{"value", func() { panic("boom") }, "boom"},
		{"error", func() { panic(array.ErrChanged) }, array.ErrChanged.Error()},
		{"nil map", func() { nilMap[1] = 1 }, "nil map"},
		{"index", func() { s := []int{}; _ = s[len(s)+1] }, "index out of range"},
		{"nil pointer", func() { _ = nilArr[8] }, "nil pointer"},
	} {
		for _, g := range []struct {
			name  string
			guard func(func()) error
		}{
			{"File.Guard", f.Guard},
			{"Guard", func(fn func()) error { return mapfile.Guard(f.Data(), f.Path(), fn) }},
			{"Guard without data", func(fn func()) error { return mapfile.Guard(nil, "", fn) }},
			{"FromBytes", mapfile.FromBytes(pattern(10)).Guard},
		} {
			func() {
				defer func() {
					r := recover()
					if r == nil || !strings.Contains(panicText(r), tc.want) {
						t.Errorf("%s, %s: recovered %v, want a panic with %q", g.name, tc.name, r, tc.want)
					}
				}()
				err := g.guard(tc.fn)
				t.Errorf("%s, %s: returned %v instead of panicking", g.name, tc.name, err)
			}()
			if debug.SetPanicOnFault(false) {
				t.Errorf("%s, %s: panic-on-fault left on", g.name, tc.name)
			}
		}
	}
	ran := false
	if err := f.Guard(func() { ran = true }); err != nil || !ran {
		t.Errorf("a read that does not fail: ran %v, %v", ran, err)
	}
}

func panicText(r any) string {
	if e, ok := r.(error); ok {
		return e.Error()
	}
	if s, ok := r.(string); ok {
		return s
	}
	return ""
}

// TestOpen_fifo: a FIFO is refused before anything could block on it
// (no writer ever opens it).
func TestOpen_fifo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if f, err := mapfile.Open(path); !errors.Is(err, array.ErrNotRegular) {
		t.Errorf("FIFO: %v, want ErrNotRegular", err)
		if f != nil {
			f.Close()
		}
	}
}
