package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// arrowCount reads b as an Arrow IPC file (file) or stream and returns
// its row count and fields as name:type.
func arrowCount(t *testing.T, b []byte, file bool) (int64, string) {
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
		return n, strings.Join(fields, " ")
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
	return n, strings.Join(fields, " ")
}

// TestRun_exportArrow: -o x.arrows writes an IPC stream, -o x.arrow and
// x.feather an IPC file, --mode arrow a stream to standard output; a
// failing query leaves the old file.
func TestRun_exportArrow(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	demo := filepath.Join("..", "..", "testdata", "demo.tet")
	const q = "SELECT station, station_label, value FROM location"
	const fields = "station:int64 station_label:utf8 value:float64"
	var stream []byte
	for _, tc := range []struct {
		name string
		file bool
	}{{"t.arrows", false}, {"t.arrow", true}, {"t.feather", true}} {
		out := filepath.Join(dir, tc.name)
		code, stdout, errs := runCLI(t, "", "-o", out, demo, q)
		if code != 0 || stdout != "" {
			t.Fatalf("%s: exit %d, stdout %q, stderr %q", tc.name, code, stdout, errs)
		}
		b, _ := os.ReadFile(out)
		if n, f := arrowCount(t, b, tc.file); n != 100 || f != fields {
			t.Errorf("%s: %d rows, fields %s", tc.name, n, f)
		}
		if !tc.file {
			stream = b
		}
		code, _, errs = runCLI(t, "", "-o", out, demo, "SELECT value, CASE WHEN time > 200 THEN abs(-9223372036854775807 - 1) END FROM temperature")
		if code != 1 || !strings.Contains(errs, "integer overflow") {
			t.Errorf("%s: failing query: exit %d, stderr %q", tc.name, code, errs)
		}
		if again, _ := os.ReadFile(out); !bytes.Equal(again, b) {
			t.Errorf("a failing query changed %s", out)
		}
	}
	code, stdout, errs := runCLI(t, "", "--mode", "arrow", demo, q)
	if code != 0 || stdout != string(stream) {
		t.Errorf("--mode arrow to stdout: exit %d, %d bytes (want the .arrows file's %d), stderr %q", code, len(stdout), len(stream), errs)
	}
	code, _, errs = runCLI(t, "", "--partition-by", "station", "-o", filepath.Join(dir, "p.arrow"), demo, q)
	if code != 2 || !strings.Contains(errs, "--partition-by writes Parquet files into a directory, not") {
		t.Errorf("--partition-by with -o x.arrow: exit %d, stderr %q", code, errs)
	}
	code, _, errs = runCLI(t, "", "--partition-by", "station", "--mode", "arrow", "-o", filepath.Join(dir, "p"), demo, q)
	if code != 2 || !strings.Contains(errs, "--partition-by writes Parquet, not --mode arrow") {
		t.Errorf("--partition-by with --mode arrow: exit %d, stderr %q", code, errs)
	}
	// A statement without a result set leaves no (empty, unreadable) file.
	for _, name := range []string{"none.arrows", "none.parquet"} {
		code, _, errs = runCLI(t, "", "-o", filepath.Join(dir, name), demo, "CREATE TEMP VIEW v AS SELECT 1")
		if _, err := os.Stat(filepath.Join(dir, name)); code != 1 || err == nil || !strings.Contains(errs, "not written") {
			t.Errorf("-o %s of a statement without results: exit %d, stat %v, stderr %q", name, code, err, errs)
		}
	}
	// A binary --mode against the other binary format's extension.
	for _, c := range [][2]string{{"arrow", "m.parquet"}, {"parquet", "m.arrows"}, {"arrow", "m.pq"}} {
		code, _, errs = runCLI(t, "", "--mode", c[0], "-o", filepath.Join(dir, c[1]), demo, q)
		if code != 2 || !strings.Contains(errs, "--mode "+c[0]+" does not write") {
			t.Errorf("--mode %s -o %s: exit %d, stderr %q", c[0], c[1], code, errs)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 3 {
		t.Errorf("files in the output directory: %v, want the three exports", ents)
	}
}

// TestBinary_arrowPipe: the built command's Arrow stream read through a
// pipe; the stream of a failing query is cut so that readers fail.
func TestBinary_arrowPipe(t *testing.T) {
	t.Parallel()
	demo, err := filepath.Abs(filepath.Join("..", "..", "testdata", "demo.tet"))
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, errs := runBin(t, t.TempDir(), "", "--mode", "arrow", demo, "SELECT * FROM pressure")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if n, f := arrowCount(t, []byte(stdout), false); n != 250344 ||
		f != "time:int64 lat:int64 lon:int64 time_label:utf8 lat_label:int64 lon_label:int64 value:float32" {
		t.Errorf("%d rows, fields %s", n, f)
	}
	code, stdout, errs = runBin(t, t.TempDir(), "", "--mode", "arrow", demo,
		"SELECT value, CASE WHEN time > 300 THEN abs(-9223372036854775807 - 1) END FROM pressure")
	if code != 1 || !strings.Contains(errs, "integer overflow") || len(stdout) == 0 {
		t.Fatalf("failing query: exit %d, %d bytes, stderr %q", code, len(stdout), errs)
	}
	r, err := ipc.NewReader(strings.NewReader(stdout))
	if err != nil {
		t.Fatal(err)
	}
	for r.Next() {
	}
	if r.Err() == nil {
		t.Error("the stream of a failed query reads cleanly")
	}
	r.Release()
}
