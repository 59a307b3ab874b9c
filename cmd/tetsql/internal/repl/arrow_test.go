package repl_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
)

// arrowRows reads b as an Arrow IPC file (file) or stream and returns its
// row count and fields as name:type.
func arrowRows(t *testing.T, b []byte, file bool) (int64, []string) {
	t.Helper()
	var n int64
	var fields []string
	if file {
		r, err := ipc.NewFileReader(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("not an Arrow file (%d bytes): %v", len(b), err)
		}
		defer r.Close()
		for i := range r.NumRecords() {
			rec, err := r.RecordBatch(i)
			if err != nil {
				t.Fatal(err)
			}
			n += rec.NumRows()
		}
		for _, f := range r.Schema().Fields() {
			fields = append(fields, f.Name+":"+f.Type.String())
		}
		return n, fields
	}
	r, err := ipc.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not an Arrow stream (%d bytes): %v", len(b), err)
	}
	defer r.Release()
	for r.Next() {
		n += r.RecordBatch().NumRows()
	}
	if err := r.Err(); err != nil {
		t.Fatalf("reading the Arrow stream: %v", err)
	}
	for _, f := range r.Schema().Fields() {
		fields = append(fields, f.Name+":"+f.Type.String())
	}
	return n, fields
}

func TestArrowOutput(t *testing.T) {
	const q = "SELECT time, station_label, value FROM temperature"
	want := "time:int64 station_label:utf8 value:float32"
	for _, tc := range []struct {
		name string
		file bool
	}{{"x.arrows", false}, {"x.arrow", true}, {"x.feather", true}, {"X.ARROW", true}} {
		t.Run(".once "+tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), tc.name)
			e := newEnv(t, repl.Options{}, demoFile())
			e.exec(t, ".once "+out, q, "SELECT 1 AS after")
			n, fields := arrowRows(t, []byte(readFile(t, out)), tc.file)
			if n != 18300 || strings.Join(fields, " ") != want {
				t.Errorf("%d rows, fields %v; want 18300 and %v", n, fields, want)
			}
			if got := e.stdout.String(); got != "1\n" {
				t.Errorf("the statement after .once printed %q, want csv 1", got)
			}
		})
	}
	t.Run(".mode arrow with a file of another extension writes a stream", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "x.bin")
		e := newEnv(t, repl.Options{}, demoFile())
		e.exec(t, ".mode arrow", ".once "+out, q)
		if n, _ := arrowRows(t, []byte(readFile(t, out)), false); n != 18300 {
			t.Errorf("%d rows", n)
		}
	})
	t.Run(".output holds one result set", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "x.arrows")
		e := newEnv(t, repl.Options{}, demoFile())
		e.exec(t, ".output "+out, q)
		err := e.sh.Exec(context.Background(), "SELECT 2")
		if err == nil || !strings.Contains(err.Error(), "already holds an Arrow result set and an Arrow file holds one") {
			t.Fatalf("second result set: %v", err)
		}
		e.exec(t, ".output")
		if n, _ := arrowRows(t, []byte(readFile(t, out)), false); n != 18300 {
			t.Errorf("%d rows, want the first statement's 18300", n)
		}
	})
	t.Run("a file holding text results is refused", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "x.csv")
		e := newEnv(t, repl.Options{}, demoFile())
		e.exec(t, ".output "+out, "SELECT 1", ".mode arrow")
		err := e.sh.Exec(context.Background(), q)
		if err == nil || !strings.Contains(err.Error(), "already holds results: an Arrow result set needs a file of its own (.once FILE.arrows)") {
			t.Fatalf("arrow after csv: %v", err)
		}
	})
	t.Run("failing query leaves no file", func(t *testing.T) {
		dir := t.TempDir()
		e := newEnv(t, repl.Options{}, demoFile())
		for _, name := range []string{"x.arrows", "x.arrow"} {
			e.exec(t, ".once "+filepath.Join(dir, name))
			err := e.sh.Exec(context.Background(), "SELECT value, CASE WHEN time > 200 THEN abs(-9223372036854775807 - 1) END FROM temperature")
			if err == nil || !strings.Contains(err.Error(), "integer overflow") {
				t.Fatalf("%s: err %v", name, err)
			}
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Errorf("files left: %v", ents)
		}
	})
	t.Run("--mode arrow to a pipe", func(t *testing.T) {
		e := newEnv(t, repl.Options{Mode: "arrow"}, demoFile())
		e.exec(t, q)
		if n, fields := arrowRows(t, []byte(e.stdout.String()), false); n != 18300 || strings.Join(fields, " ") != want {
			t.Errorf("%d rows, fields %v", n, fields)
		}
	})
	t.Run("one binary result set on standard output", func(t *testing.T) {
		for _, mode := range []string{"arrow", "parquet"} {
			e := newEnv(t, repl.Options{Mode: mode}, demoFile())
			e.exec(t, q)
			size := len(e.stdout.String())
			err := e.sh.Exec(context.Background(), "SELECT 2")
			if err == nil || !strings.Contains(err.Error(), "standard output already holds") || len(e.stdout.String()) != size {
				t.Errorf("%s: second result set: %v (stdout %d bytes, was %d)", mode, err, len(e.stdout.String()), size)
			}
		}
	})
	t.Run("refused on a terminal", func(t *testing.T) {
		e := newEnv(t, repl.Options{Mode: "arrow", StdoutTerminal: true}, demoFile())
		err := e.sh.Exec(context.Background(), q)
		if err == nil || !strings.Contains(err.Error(), "arrow output is binary and is not written to a terminal: use -o FILE.arrows") {
			t.Fatalf("err %v", err)
		}
		if e.stdout.String() != "" {
			t.Errorf("wrote %d bytes to the terminal", len(e.stdout.String()))
		}
	})
	t.Run(".mode lists arrow", func(t *testing.T) {
		e := newEnv(t, repl.Options{}, demoFile())
		e.exec(t, ".mode")
		if !strings.Contains(e.stdout.String(), " parquet arrow") {
			t.Errorf(".mode: %q", e.stdout.String())
		}
	})
}
