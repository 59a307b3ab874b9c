package tetsql_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql"
)

// pyarrowSummary reads a Parquet file with pyarrow and prints its row
// count, column types and per-column non-NULL counts and sums.
const pyarrowSummary = `
import json, sys
import pyarrow.parquet as pq, pyarrow.compute as pc, pyarrow as pa
t = pq.read_table(sys.argv[1])
cols = []
for f in t.schema:
    c = t[f.name]
    s = pc.sum(c.cast(pa.float64())).as_py() if pa.types.is_integer(f.type) or pa.types.is_floating(f.type) else None
    cols.append({"name": f.name, "type": str(f.type), "count": pc.count(c).as_py(), "sum": s})
json.dump({"rows": t.num_rows, "cols": cols}, sys.stdout)
`

// TestWriteParquetPyarrow reads exports with pyarrow, an independent
// reader: same row count, column types, non-NULL counts and sums as SQL.
// It is skipped when python3 or pyarrow is missing.
func TestWriteParquetPyarrow(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("pyarrow interop check: no python3 on PATH")
	}
	if err := exec.Command("python3", "-c", "import pyarrow.parquet").Run(); err != nil {
		t.Skip("pyarrow interop check: pyarrow not installed (pip install pyarrow)")
	}
	db := openDemo(t)
	type col struct {
		Name, Type string
		Count      int64
		Sum        *float64
	}
	tests := []struct {
		q, sums string // sums: SQL giving count and total of each numeric column, in order
		types   []string
	}{
		{"SELECT * FROM temperature",
			"SELECT count(time), total(time), count(station), total(station), count(value), total(value) FROM temperature",
			[]string{"int64", "int64", "string", "string", "float"}},
		{"SELECT * FROM location",
			"SELECT count(station), total(station), count(coord), total(coord), count(value), total(value) FROM location",
			[]string{"int64", "int64", "string", "string", "double"}},
		{"SELECT station_label, count(value) AS n, avg(value) AS m FROM temperature GROUP BY station",
			"SELECT count(n), total(n), count(m), total(m) FROM (SELECT count(value) AS n, avg(value) AS m FROM temperature GROUP BY station)",
			[]string{"string", "int64", "double"}},
	}
	for _, tc := range tests {
		t.Run(tc.q, func(t *testing.T) {
			b, n, err := exportParquet(t, db, tc.q, tetsql.ParquetOptions{RowGroupRows: 5000})
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "x.parquet")
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			cmd := exec.Command("python3", "-c", pyarrowSummary, path)
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("pyarrow: %v: %s", err, stderr.String())
			}
			var got struct {
				Rows int64
				Cols []col
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			if got.Rows != n || len(got.Cols) != len(tc.types) {
				t.Fatalf("pyarrow: %d rows, %d columns; want %d, %d", got.Rows, len(got.Cols), n, len(tc.types))
			}
			var want []float64
			row := pqQueryAll(t, db, tc.sums)[0]
			for _, v := range row {
				switch x := v.(type) {
				case int64:
					want = append(want, float64(x))
				case float64:
					want = append(want, x)
				}
			}
			k := 0
			for i, c := range got.Cols {
				if c.Type != tc.types[i] {
					t.Errorf("column %s: pyarrow type %s, want %s", c.Name, c.Type, tc.types[i])
				}
				if c.Sum == nil {
					continue
				}
				if k+1 >= len(want) || float64(c.Count) != want[k] || !closeSum(*c.Sum, want[k+1]) {
					t.Errorf("column %s: pyarrow count %d sum %v, SQL %v", c.Name, c.Count, *c.Sum, want[k:min(k+2, len(want))])
				}
				k += 2
			}
			if k != len(want) {
				t.Errorf("%d numeric columns checked, SQL gave %d", k/2, len(want)/2)
			}
		})
	}
}

// closeSum compares sums computed in different orders.
func closeSum(a, b float64) bool {
	d := a - b
	return d <= 1e-9*max(1, b, -b) && -d <= 1e-9*max(1, b, -b)
}
