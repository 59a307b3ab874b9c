package repl_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
)

func demoFile() string { return filepath.Join("..", "..", "..", "..", "testdata", "demo.tet") }

// parquetRows opens b as a Parquet file and returns its row count and
// column names with their physical types.
func parquetRows(t *testing.T, b []byte) (int64, []string) {
	t.Helper()
	f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("not a Parquet file (%d bytes): %v", len(b), err)
	}
	var cols []string
	for _, fl := range f.Schema().Fields() {
		cols = append(cols, fl.Name()+":"+fl.Type().Kind().String())
	}
	return f.NumRows(), cols
}

func TestParquetOutput(t *testing.T) {
	const q = "SELECT time, station_label, value FROM temperature"
	want := []string{"time:INT64", "station_label:BYTE_ARRAY", "value:FLOAT"}
	t.Run(".once by extension", func(t *testing.T) {
		dir := t.TempDir()
		out := filepath.Join(dir, "x.parquet")
		e := newEnv(t, repl.Options{}, demoFile())
		e.exec(t, ".once "+out, q, "SELECT 1 AS after")
		n, cols := parquetRows(t, []byte(readFile(t, out)))
		if n != 18300 || strings.Join(cols, " ") != strings.Join(want, " ") {
			t.Errorf("%d rows, columns %v; want 18300 and %v", n, cols, want)
		}
		if got := e.stdout.String(); got != "1\n" {
			t.Errorf("the statement after .once printed %q, want csv 1", got)
		}
	})
	t.Run(".output holds one result set", func(t *testing.T) {
		dir := t.TempDir()
		out := filepath.Join(dir, "x.pq")
		e := newEnv(t, repl.Options{}, demoFile())
		e.exec(t, ".output "+out, q)
		err := e.sh.Exec(context.Background(), "SELECT 2")
		if err == nil || !strings.Contains(err.Error(), "already holds a Parquet result set") {
			t.Fatalf("second result set: %v", err)
		}
		e.exec(t, ".output")
		if n, _ := parquetRows(t, []byte(readFile(t, out))); n != 18300 {
			t.Errorf("%d rows, want the first statement's 18300", n)
		}
	})
	t.Run("failing query leaves no file", func(t *testing.T) {
		dir := t.TempDir()
		out := filepath.Join(dir, "x.parquet")
		e := newEnv(t, repl.Options{}, demoFile())
		e.exec(t, ".once "+out)
		err := e.sh.Exec(context.Background(), "SELECT CASE WHEN time > 200 THEN abs(-9223372036854775807 - 1) END FROM temperature")
		if err == nil || !strings.Contains(err.Error(), "integer overflow") {
			t.Fatalf("err %v", err)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Errorf("files left: %v", ents)
		}
	})
	t.Run("--mode parquet to a pipe", func(t *testing.T) {
		e := newEnv(t, repl.Options{Mode: "parquet"}, demoFile())
		e.exec(t, q)
		if n, cols := parquetRows(t, []byte(e.stdout.String())); n != 18300 || len(cols) != 3 {
			t.Errorf("%d rows, columns %v", n, cols)
		}
	})
	t.Run("refused on a terminal", func(t *testing.T) {
		e := newEnv(t, repl.Options{Mode: "parquet", StdoutTerminal: true}, demoFile())
		err := e.sh.Exec(context.Background(), q)
		if err == nil || !strings.Contains(err.Error(), "not written to a terminal") {
			t.Fatalf("err %v", err)
		}
		if e.stdout.String() != "" {
			t.Errorf("wrote %d bytes to the terminal", len(e.stdout.String()))
		}
	})
	t.Run("compression", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "x.parquet")
		e := newEnv(t, repl.Options{Compression: "GZIP"}, demoFile())
		e.exec(t, ".once "+out, q)
		b := []byte(readFile(t, out))
		f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range f.Metadata().RowGroups[0].Columns {
			if c.MetaData.Codec != format.Gzip {
				t.Errorf("column %v: codec %v, want GZIP", c.MetaData.PathInSchema, c.MetaData.Codec)
			}
		}
		if _, err := repl.New(e.conn, repl.Options{Compression: "lz77"}); !repl.IsUsage(err) || !strings.Contains(err.Error(), `unknown compression "lz77"`) {
			t.Errorf("bad codec: %v", err)
		}
	})
	t.Run(".mode lists parquet", func(t *testing.T) {
		e := newEnv(t, repl.Options{}, demoFile())
		e.exec(t, ".mode")
		if !strings.Contains(e.stdout.String(), " parquet") {
			t.Errorf(".mode: %q", e.stdout.String())
		}
	})
}
