package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScaleOutDocReference checks the reference answer docs/SCALE-OUT.md
// quotes (the one DuckDB, Spark, polars and pyarrow are shown to agree
// with) against the built binary, so the document cannot drift from it.
func TestScaleOutDocReference(t *testing.T) {
	root := filepath.Join("..", "..")
	doc, err := os.ReadFile(filepath.Join(root, "docs", "SCALE-OUT.md"))
	if err != nil {
		t.Fatal(err)
	}
	q := "SELECT month, count(*) AS n, round(avg(value), 4) AS mean, max(value) AS max FROM t2m\n" +
		"    WHERE lat_label >= 45 AND month IN ('06', '07', '08') GROUP BY month ORDER BY month"
	if !strings.Contains(string(doc), q) {
		t.Fatalf("docs/SCALE-OUT.md no longer quotes the reference query:\n%s", q)
	}
	code, out, errs := runBin(t, root, "", "testdata/era5_monthly/**/*.tet", q)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	block := "```text\n" + out + "```\n"
	if !strings.Contains(string(doc), block) {
		t.Errorf("docs/SCALE-OUT.md does not quote the reference output; tetsql prints:\n%s", out)
	}
}
