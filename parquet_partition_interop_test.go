package tetsql_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql"
)

// pyarrowHive reads a hive-partitioned dataset with pyarrow and prints
// each (k, g) group's row count and sum of i, and the schema.
const pyarrowHive = `
import json, sys
import pyarrow.dataset as ds
t = ds.dataset(sys.argv[1], format="parquet", partitioning="hive").to_table()
groups = {}
for i, k, g in zip(t["i"].to_pylist(), t["k"].to_pylist(), t["g"].to_pylist()):
    key = "%s|%s" % ("NULL" if k is None else k, g)
    c, s = groups.get(key, (0, 0))
    groups[key] = (c + 1, s + i)
json.dump({"rows": t.num_rows, "names": t.schema.names, "groups": {k: list(v) for k, v in groups.items()}}, sys.stdout)
`

// TestWriteParquetPartitionedPyarrow reads a partitioned export with
// pyarrow's hive partitioning: the unescaped values, NULL, and every row
// once. Skipped when python3 or pyarrow is missing.
func TestWriteParquetPartitionedPyarrow(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("pyarrow interop check: no python3 on PATH")
	}
	if err := exec.Command("python3", "-c", "import pyarrow.dataset").Run(); err != nil {
		t.Skip("pyarrow interop check: pyarrow not installed (pip install pyarrow)")
	}
	const n = 500
	dir := filepath.Join(t.TempDir(), "ds")
	if _, _, err := partitioned(t, pqSeries(n), dir, []string{"k", "g"}, tetsql.ParquetOptions{MaxOpenFiles: 2}); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd := exec.Command("python3", "-c", pyarrowHive, dir)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pyarrow: %v: %s", err, stderr.String())
	}
	var got struct {
		Rows   int
		Names  []string
		Groups map[string][2]int64
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int64{}
	for i := int64(0); i < n; i++ {
		k := [...]string{"a/b", "c=d%", "NULL", "NULL", "p q"}[i%5]
		key := fmt.Sprintf("%s|%d", k, i%3)
		w := want[key]
		want[key] = [2]int64{w[0] + 1, w[1] + i}
	}
	if got.Rows != n || len(got.Groups) != len(want) {
		t.Errorf("pyarrow: %d rows in %d groups, want %d in %d (%v)", got.Rows, len(got.Groups), n, len(want), got.Groups)
	}
	for k, w := range want {
		if got.Groups[k] != w {
			t.Errorf("group %s: pyarrow count, sum %v; want %v", k, got.Groups[k], w)
		}
	}
	t.Logf("pyarrow columns %v", got.Names)
}
