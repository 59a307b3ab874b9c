//go:build unix

package vtab_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/tetcore"
)

// TestChangedFile_neverMixes replaces a file that a database has mapped
// (renamed over, and rewritten in place at the same size): the next
// statement on the old database fails with "file changed on disk" instead
// of reading old and new bytes, and a database opened afterwards reads
// the new file, not the registry's stale mapping.
func TestChangedFile_neverMixes(t *testing.T) {
	const n, chunk = 4096, 512
	cases := []struct {
		name    string
		replace func(t *testing.T, path string) float64
	}{
		{"rename over", func(t *testing.T, path string) float64 {
			return writeF64(t, path, n, chunk, tetcore.CodecRaw, func(i int64) float64 { return float64(2 * i) })
		}},
		{"rewrite in place", func(t *testing.T, path string) float64 {
			other := filepath.Join(t.TempDir(), "other.tet")
			sum := writeF64At(t, other, n, chunk, tetcore.CodecRaw, func(i int64) float64 { return float64(3 * i) })
			b, err := os.ReadFile(other)
			if err != nil {
				t.Fatal(err)
			}
			time.Sleep(20 * time.Millisecond)                    // past the file system's timestamp granularity
			if err := os.WriteFile(path, b, 0o644); err != nil { // O_TRUNC, same inode
				t.Fatal(err)
			}
			return sum
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f.tet")
			oldSum := writeF64(t, path, n, chunk, tetcore.CodecRaw, func(i int64) float64 { return float64(i) })
			db, sess := openDB(t, map[string]string{"a": path})
			if got, err := sumOf(db, "a"); err != nil || got != oldSum {
				t.Fatalf("before: %v %v, want %v", got, err, oldSum)
			}
			newSum := tc.replace(t, path)
			if oldSum == newSum {
				t.Fatal("test files must differ")
			}
			sess.TakeError()
			got, err := sumOf(db, "a")
			// modernc's binding drops xOpen's message: the session keeps it.
			if serr := sess.TakeError(); err == nil || serr == nil ||
				!strings.Contains(serr.Error(), "file changed on disk") || !errors.Is(serr, tetcore.ErrChanged) {
				t.Fatalf("old database after the change: sum %v, err %v (session: %v); want a \"file changed on disk\" error", got, err, serr)
			}
			db2, _ := openDB(t, map[string]string{"b": path})
			if got, err := sumOf(db2, "b"); err != nil || got != newSum {
				t.Fatalf("new database: %v %v, want the new file's sum %v", got, err, newSum)
			}
		})
	}
}

// TestOpenFile_nonRegular: a FIFO, a directory or a device is refused at
// once with a clear error; an open of a FIFO never blocks the registry,
// so an open of another file at the same time completes.
func TestOpenFile_nonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.tet")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	t.Cleanup(func() {
		// Unblock an open that waits for a writer (only without the fix).
		if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
	})
	good := filepath.Join(dir, "good.tet")
	writeF64(t, good, 16, 4, tetcore.CodecRaw, func(i int64) float64 { return float64(i) })
	reg := scan.NewRegistry(formats)

	type result struct {
		name string
		err  error
	}
	done := make(chan result, 2)
	go func() {
		h, err := reg.Open(fifo)
		if err == nil {
			h.Close()
		}
		done <- result{"fifo", err}
	}()
	time.Sleep(10 * time.Millisecond) // let the FIFO open go first
	go func() {
		h, err := reg.Open(good)
		if err == nil {
			h.Close()
		}
		done <- result{"good", err}
	}()
	timeout := time.After(3 * time.Second)
	for range 2 {
		select {
		case r := <-done:
			if r.name == "fifo" && (!errors.Is(r.err, tetcore.ErrNotRegular) || !strings.Contains(r.err.Error(), "FIFO")) {
				t.Errorf("FIFO: %v; want a not-a-regular-file error", r.err)
			}
			if r.name == "good" && r.err != nil {
				t.Errorf("regular file: %v", r.err)
			}
		case <-timeout:
			t.Fatal("an open hung (the FIFO, or the other file behind the registry lock)")
		}
	}

	for _, p := range []string{dir, "/dev/null"} {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		if h, err := reg.Open(p); !errors.Is(err, tetcore.ErrNotRegular) {
			if err == nil {
				h.Close()
			}
			t.Errorf("%s: %v; want ErrNotRegular", p, err)
		}
	}
}

// TestTruncatedUnderCursor truncates a file while a scan of it is half
// read: the scan ends with "was truncated while in use" instead of the
// process dying of SIGBUS, and the next statement reports the change.
func TestTruncatedUnderCursor(t *testing.T) {
	for _, codec := range []tetcore.Codec{tetcore.CodecRaw, tetcore.CodecZstd} {
		path := filepath.Join(t.TempDir(), "t.tet")
		const n, chunk = 1 << 18, 1 << 12
		writeF64(t, path, n, chunk, codec, func(i int64) float64 { return float64(i % 1000) })
		db, sess := openDB(t, map[string]string{"a": path})
		rows, err := db.Query(`SELECT d0, value FROM a.v`)
		if err != nil {
			t.Fatal(err)
		}
		var seen int64
		for rows.Next() {
			var d0 int64
			var v float64
			if err := rows.Scan(&d0, &v); err != nil {
				t.Fatal(err)
			}
			if d0 != seen || v != float64(d0%1000) {
				t.Fatalf("row %d: d0 %d value %v", seen, d0, v)
			}
			seen++
			if seen == 10 {
				if err := os.Truncate(path, 0); err != nil {
					t.Fatal(err)
				}
			}
		}
		err = rows.Err()
		rows.Close()
		serr := sess.TakeError()
		if seen >= n || err == nil || serr == nil || !strings.Contains(serr.Error(), "was truncated while in use") {
			t.Fatalf("codec %v: %d rows, err %v (session %v); want \"was truncated while in use\"", codec, seen, err, serr)
		}
		if _, err := sumOf(db, "a"); err == nil {
			t.Errorf("codec %v: the next statement read the truncated file", codec)
		}
		if serr := sess.TakeError(); !errors.Is(serr, tetcore.ErrChanged) {
			t.Errorf("codec %v: next statement: %v, want ErrChanged", codec, serr)
		}
	}
}

// TestOpenFile_concurrentWhileReplaced opens and closes one path from
// many goroutines while the file is replaced: every handle sees a whole
// file (one of the versions), and once all are closed nothing stays
// mapped. Run with -race.
func TestOpenFile_concurrentWhileReplaced(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.tet")
	writeF64(t, path, 64, 16, tetcore.CodecRaw, func(i int64) float64 { return 0 })
	abs, _ := filepath.Abs(path)
	reg := scan.NewRegistry(formats)
	done := make(chan error)
	for g := range 8 {
		go func() {
			var err error
			for range 40 {
				h, e := reg.Open(path)
				if e != nil {
					err = e
					break
				}
				if n := h.Source().Arrays()[0].Info().Shape[0]; n < 64 || n%64 != 0 {
					err = fmt.Errorf("goroutine %d: shape %d", g, n)
				}
				h.Close()
			}
			done <- err
		}()
	}
	for v := range 5 {
		writeF64(t, path, int64(64*(v+2)), 16, tetcore.CodecRaw, func(i int64) float64 { return float64(v) })
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
	for _, p := range reg.OpenPaths() {
		if p == abs {
			t.Errorf("%s still mapped after every handle closed", p)
		}
	}
}

// TestRewrittenDuringScan rewrites a file in place (same size, other
// values) while a scan of it is half read and not touching the mapping:
// the scan's later chunks would read the new bytes, so the statement
// must end with "file changed on disk" rather than succeed with a mix.
func TestRewrittenDuringScan(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.tet")
	const n, chunk = 1 << 16, 1 << 12
	writeF64At(t, path, n, chunk, tetcore.CodecRaw, func(i int64) float64 { return 1 })
	other := filepath.Join(dir, "other.tet")
	writeF64At(t, other, n, chunk, tetcore.CodecRaw, func(i int64) float64 { return 2 })
	b, err := os.ReadFile(other)
	if err != nil {
		t.Fatal(err)
	}
	db, sess := openDB(t, map[string]string{"a": path})
	rows, err := db.Query(`SELECT value FROM a.v`)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[float64]int{}
	for rows.Next() {
		var v float64
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		seen[v]++
		if seen[v] == 10 && v == 1 {
			time.Sleep(20 * time.Millisecond) // past the timestamp granularity
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	err = rows.Err()
	rows.Close()
	serr := sess.TakeError()
	if err == nil || serr == nil || !errors.Is(serr, tetcore.ErrChanged) {
		t.Fatalf("scan over a rewrite saw %v, ended with %v (session %v); want a \"file changed on disk\" error", seen, err, serr)
	}
	t.Logf("rows before the error: %v; %v", seen, serr)
}
