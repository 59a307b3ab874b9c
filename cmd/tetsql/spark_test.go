package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSparkDataSource runs examples/spark/check_spark.py with local Spark
// (local[2]) against the built binary: the "tet" data source must give
// tetsql's own counts, sums, extremes, schema and partitioning, over a
// glob, a single file split into chunk ranges, integer dtypes and a glob
// with a missing hive key, through Arrow (when the binary has it) and
// Parquet. Skipped without python3, pyspark 4, pyarrow or java, and in
// -short mode (Spark takes a minute or two).
func TestSparkDataSource(t *testing.T) {
	if testing.Short() {
		t.Skip("Spark data source check: skipped in -short mode")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("Spark data source check: no python3 on PATH")
	}
	if _, err := exec.LookPath("java"); err != nil {
		t.Skip("Spark data source check: no java on PATH (Spark 4 needs Java 17 or newer)")
	}
	if err := exec.Command("python3", "-c", "import pyspark.sql.datasource, pyarrow").Run(); err != nil {
		t.Skip("Spark data source check: python3 cannot import pyspark.sql.datasource (Spark 4) and pyarrow (pip install 'pyspark>=4' pyarrow)")
	}
	here, err := filepath.Abs(filepath.Join("..", "..", "examples", "spark"))
	if err != nil {
		t.Fatal(err)
	}
	// Read through the os package so that editing them invalidates go
	// test's cache of this test (it runs them in another process).
	for _, f := range []string{"check_spark.py", "tet_datasource.py"} {
		if _, err := os.ReadFile(filepath.Join(here, f)); err != nil {
			t.Fatal(err)
		}
	}
	transports := []string{"parquet"}
	arrow := hasArrowMode(t)
	if arrow {
		transports = append([]string{"arrow"}, transports...)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "python3", filepath.Join(here, "check_spark.py"),
		"--tetsql", tetsqlBin, "--transports", strings.Join(transports, ","))
	cmd.Env = append(os.Environ(), "PYTHONPATH="+here, "PYSPARK_PYTHON=python3")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("check_spark.py: %v\n%s", err, checkLines(out))
	}
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			if !bytes.Contains(out, []byte("\nok transport="+tr+"\n")) {
				t.Fatalf("no ok line for transport %s:\n%s", tr, checkLines(out))
			}
		})
	}
	if !arrow {
		t.Run("arrow", func(t *testing.T) {
			t.Skip("Spark data source, arrow transport: this tetsql has no --mode arrow (Arrow IPC output) yet; checked with transport=parquet only")
		})
	}
	t.Logf("%s", checkLines(out))
}

// checkLines keeps the check's own lines of out, not Spark's logging.
func checkLines(out []byte) string {
	var b strings.Builder
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "  ") || strings.HasPrefix(l, "ok ") || strings.HasPrefix(l, "FAIL ") ||
			strings.HasPrefix(l, "transport=") || strings.HasPrefix(l, "pyspark ") || strings.Contains(l, "Error") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}
