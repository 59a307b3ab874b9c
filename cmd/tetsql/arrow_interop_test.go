package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// arrowSummary reads an Arrow IPC stream from standard input ("-") or an
// IPC file (a path) with one reader (pyarrow, polars or duckdb) and
// prints its row count and, per column, the reader's type name, the
// non-NULL count and, for numeric columns, the sum.
const arrowSummary = `
import json, sys
import pyarrow as pa
reader, src = sys.argv[1], sys.argv[2]
cols = []
if reader == "pyarrow":
    import pyarrow.compute as pc, pyarrow.feather as feather
    t = pa.ipc.open_stream(sys.stdin.buffer).read_all() if src == "-" else feather.read_table(src)
    rows = t.num_rows
    for f in t.schema:
        num = pa.types.is_integer(f.type) or pa.types.is_floating(f.type)
        s = pc.sum(t[f.name].cast(pa.float64(), safe=False)).as_py() if num else None
        cols.append({"name": f.name, "type": str(f.type), "count": pc.count(t[f.name]).as_py(), "sum": s})
elif reader == "polars":
    import polars as pl
    df = pl.read_ipc_stream(sys.stdin.buffer) if src == "-" else pl.read_ipc(src)
    rows = df.height
    for name, dt in df.schema.items():
        s = df[name].cast(pl.Float64).sum() if dt.is_numeric() else None
        cols.append({"name": name, "type": str(dt), "count": df[name].count(), "sum": s})
else:
    import duckdb
    con = duckdb.connect()
    data = pa.ipc.open_stream(sys.stdin.buffer) if src == "-" else pa.ipc.open_file(src).read_all()
    rel = con.from_arrow(data)
    names, types = rel.columns, [str(t) for t in rel.types]
    num = {"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "FLOAT", "DOUBLE"}
    aggs = ["count(*)"]
    for n, ty in zip(names, types):
        q = '"' + n.replace('"', '""') + '"'
        aggs += ["count(%s)" % q, ("sum(%s::DOUBLE)" % q) if ty in num else "NULL"]
    res = rel.aggregate(", ".join(aggs)).fetchall()[0]
    rows = res[0]
    for i, (n, ty) in enumerate(zip(names, types)):
        cols.append({"name": n, "type": ty, "count": res[1 + 2 * i], "sum": res[2 + 2 * i]})
json.dump({"rows": rows, "cols": cols}, sys.stdout)
`

// readerTypes names each Arrow type as each reader does.
var readerTypes = map[string]map[string]string{
	"pyarrow": {"int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64", "uint8": "uint8", "uint16": "uint16",
		"uint32": "uint32", "uint64": "uint64", "float32": "float", "float64": "double", "utf8": "string", "binary": "binary"},
	"polars": {"int8": "Int8", "int16": "Int16", "int32": "Int32", "int64": "Int64", "uint8": "UInt8", "uint16": "UInt16",
		"uint32": "UInt32", "uint64": "UInt64", "float32": "Float32", "float64": "Float64", "utf8": "String", "binary": "Binary"},
	"duckdb": {"int8": "TINYINT", "int16": "SMALLINT", "int32": "INTEGER", "int64": "BIGINT", "uint8": "UTINYINT", "uint16": "USMALLINT",
		"uint32": "UINTEGER", "uint64": "UBIGINT", "float32": "FLOAT", "float64": "DOUBLE", "utf8": "VARCHAR", "binary": "BLOB"},
}

// readerSummary is what arrowSummary prints.
type readerSummary struct {
	Rows int64
	Cols []struct {
		Name, Type string
		Count      int64
		Sum        *float64
	}
}

// TestBinary_arrowReaders pipes `tetsql --mode arrow` into pyarrow,
// polars and DuckDB (through pyarrow's stream reader), and has them read
// a .feather file written by -o: row counts, types, non-NULL counts and
// sums must match what tetsql's JSON output of the same query gives.
// Each reader is skipped when python3 or its package is missing.
func TestBinary_arrowReaders(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("Arrow reader interop check: no python3 on PATH")
	}
	demo, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "demo.tet"))
	ints := []string{"-c", "CREATE TEMP TABLE ints(a INT8, b INT16, c INT32, d INT64, e UINT8, f UINT16, g UINT32, h UINT64)",
		"-c", "INSERT INTO ints VALUES (-128, -32768, -2147483648, -9223372036854775807, 0, 0, 0, 0), " +
			"(127, 32767, 2147483647, 9223372036854775807, 255, 65535, 4294967295, 9223372036854775807), " +
			"(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), (1, 2, 3, 4, 5, 6, 7, 8)"}
	tests := []struct {
		name  string
		args  []string // before the output options
		q     string
		types []string // Arrow types of the columns
	}{
		{"f32 cells with labels and NULLs", []string{demo}, "SELECT * FROM temperature",
			[]string{"int64", "int64", "utf8", "utf8", "float32"}},
		{"f64 cells", []string{demo}, "SELECT * FROM location", []string{"int64", "int64", "utf8", "utf8", "float64"}},
		{"aggregates", []string{demo}, "SELECT station_label, count(value) AS n, avg(value) AS m FROM temperature GROUP BY station",
			[]string{"utf8", "int64", "float64"}},
		{"integer dtypes", append([]string{demo}, ints...), "SELECT * FROM ints",
			[]string{"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := jsonSummary(t, append(append(append([]string{}, tc.args...), "--json"), "-c", tc.q))
			feather := filepath.Join(t.TempDir(), "x.feather")
			if code, _, errs := runBin(t, t.TempDir(), "", append(append(append([]string{}, tc.args...), "-o", feather), "-c", tc.q)...); code != 0 {
				t.Fatalf("-o x.feather: exit %d: %s", code, errs)
			}
			for _, reader := range []string{"pyarrow", "polars", "duckdb"} {
				if err := exec.Command("python3", "-c", "import pyarrow, "+reader).Run(); err != nil {
					t.Logf("skipped %s: python3 cannot import pyarrow and %s", reader, reader)
					continue
				}
				for _, src := range []string{"-", feather} {
					var args []string
					if src == "-" {
						args = append(append(append([]string{}, tc.args...), "--mode", "arrow"), "-c", tc.q)
					}
					got := pipeSummary(t, reader, src, args)
					checkSummary(t, reader+" "+src, got, want, tc.types)
				}
			}
		})
	}
}

// jsonSummary runs tetsql with args (JSON output) and summarises its
// rows as arrowSummary does: counts and sums of the numeric columns.
func jsonSummary(t *testing.T, args []string) map[string][2]float64 {
	t.Helper()
	code, stdout, errs := runBin(t, t.TempDir(), "", args...)
	if code != 0 {
		t.Fatalf("tetsql %q: exit %d: %s", args, code, errs)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil {
		t.Fatalf("JSON output: %v", err)
	}
	out := map[string][2]float64{"": {float64(len(rows))}}
	for _, r := range rows {
		for k, v := range r {
			s := out[k]
			if v != nil {
				s[0]++
			}
			if f, ok := v.(float64); ok {
				s[1] += f
			}
			out[k] = s
		}
	}
	return out
}

// pipeSummary runs arrowSummary with reader on src; for "-" its input is
// the standard output of tetsql args, through a pipe.
func pipeSummary(t *testing.T, reader, src string, args []string) readerSummary {
	t.Helper()
	py := exec.Command("python3", "-c", arrowSummary, reader, src)
	var pyOut, pyErr, cliErr bytes.Buffer
	py.Stdout, py.Stderr = &pyOut, &pyErr
	var cli *exec.Cmd
	if src == "-" {
		cli = exec.Command(tetsqlBin, args...)
		cli.Stderr = &cliErr
		pipe, err := cli.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		py.Stdin = pipe
		if err := cli.Start(); err != nil {
			t.Fatal(err)
		}
	}
	if err := py.Run(); err != nil {
		t.Fatalf("%s %s: %v: %s", reader, src, err, pyErr.String())
	}
	if cli != nil {
		if err := cli.Wait(); err != nil {
			t.Fatalf("tetsql %q: %v: %s", args, err, cliErr.String())
		}
	}
	var s readerSummary
	if err := json.Unmarshal(pyOut.Bytes(), &s); err != nil {
		t.Fatalf("%s: %v in %q", reader, err, pyOut.String())
	}
	return s
}

// checkSummary compares a reader's summary with the JSON output's.
func checkSummary(t *testing.T, who string, got readerSummary, want map[string][2]float64, types []string) {
	t.Helper()
	reader, _, _ := strings.Cut(who, " ")
	if got.Rows != int64(want[""][0]) || len(got.Cols) != len(types) {
		t.Fatalf("%s: %d rows, %d columns; want %v, %d", who, got.Rows, len(got.Cols), want[""][0], len(types))
	}
	for i, c := range got.Cols {
		if wt := readerTypes[reader][types[i]]; c.Type != wt {
			t.Errorf("%s: column %s has type %s, want %s", who, c.Name, c.Type, wt)
		}
		w := want[c.Name]
		if float64(c.Count) != w[0] {
			t.Errorf("%s: column %s: %d non-NULL, want %v", who, c.Name, c.Count, w[0])
		}
		if c.Sum != nil && math.Abs(*c.Sum-w[1]) > 1e-9*max(1, math.Abs(w[1])) {
			t.Errorf("%s: column %s: sum %v, want %v", who, c.Name, *c.Sum, w[1])
		}
		if (c.Sum != nil) != (types[i] != "utf8" && types[i] != "binary") {
			t.Errorf("%s: column %s: sum %v for type %s", who, c.Name, c.Sum, types[i])
		}
	}
}
