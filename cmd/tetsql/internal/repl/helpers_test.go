package repl_test

import (
	"bytes"
	"context"
	"database/sql"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
	"github.com/tetsql/tetsql/tetcore"
)

func ref(name string) string {
	return filepath.Join("..", "..", "..", "..", "testdata", "reference", name)
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// env is a shell on a fresh connection with captured output.
type env struct {
	sh             *repl.Shell
	conn           *sql.Conn
	stdout, stderr *syncBuffer
}

// newEnv opens files (paths; "alias=path" not supported here) and a shell
// with opt, whose Stdout and Stderr it replaces by buffers. With
// opt.Safe the connection is in safe mode too, as the command's is.
func newEnv(t testing.TB, opt repl.Options, files ...string) *env {
	t.Helper()
	cfg := tetsql.Config{Safe: opt.Safe}
	for _, f := range files {
		cfg.Files = append(cfg.Files, tetsql.FileSpec{Path: f})
	}
	c, err := tetsql.NewConnector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(c)
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	e := &env{conn: conn, stdout: &syncBuffer{}, stderr: &syncBuffer{}}
	opt.Stdout, opt.Stderr = e.stdout, e.stderr
	if e.sh, err = repl.New(conn, opt); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		e.sh.CloseAfter(nil)
		conn.Close()
		db.Close()
	})
	return e
}

// exec runs commands and fails the test on an error.
func (e *env) exec(t testing.TB, cmds ...string) {
	t.Helper()
	for _, c := range cmds {
		if err := e.sh.Exec(context.Background(), c); err != nil {
			t.Fatalf("%s: %v\nstderr: %s", c, err, e.stderr)
		}
	}
}

// fakeLines is a LineReader fed from a slice; onRead runs before line i
// is returned (i = len(lines) at EOF).
type fakeLines struct {
	lines   []string
	i       int
	prompts []string
	history []string
	onRead  func(i int)
}

func (f *fakeLines) ReadLine(prompt string) (string, error) {
	f.prompts = append(f.prompts, prompt)
	if f.onRead != nil {
		f.onRead(f.i)
	}
	if f.i >= len(f.lines) {
		return "", io.EOF
	}
	l := f.lines[f.i]
	f.i++
	if l == "^C" {
		return "", repl.ErrInterrupt
	}
	return l, nil
}

func (f *fakeLines) AddHistory(e string) { f.history = append(f.history, e) }

// bigFile writes a one-dataset u8 file of n elements in chunks of chunk
// elements and returns its path.
func bigFile(t testing.TB, n, chunk int64) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "big.tet")
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.AddDataset(tetcore.DatasetSpec{Name: "big", DType: tetcore.U8, Shape: []int64{n}, ChunkShape: []int64{chunk},
		DimNames: []string{"i"}}); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, chunk)
	for i := range buf {
		buf[i] = byte(i % 251)
	}
	for {
		_, _, _, extent, ok := w.NextChunk()
		if !ok {
			break
		}
		if err := w.WriteChunk(buf[:extent[0]]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
