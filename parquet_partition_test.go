package tetsql_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/tetsql/tetsql"
)

// pqSeries is n rows i = 0..n-1 with x = i/2, a text key k cycling
// through values that need escaping, NULL and ”, and g = i%3.
func pqSeries(n int) string {
	return fmt.Sprintf(`WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM s WHERE i < %d)
SELECT i, i*0.5 AS x, CASE i%%5 WHEN 0 THEN 'a/b' WHEN 1 THEN 'c=d%%' WHEN 2 THEN NULL WHEN 3 THEN '' ELSE 'p q' END AS k, i%%3 AS g FROM s`, n-1)
}

// pqKeyDir is the expected directory value of k for row i.
func pqKeyDir(i int64) string {
	return [...]string{"a%2Fb", "c%3Dd%25", tetsql.HiveNullPartition, tetsql.HiveNullPartition, "p q"}[i%5]
}

// partitioned runs q into dir partitioned by by.
func partitioned(t *testing.T, q, dir string, by []string, opts tetsql.ParquetOptions) (int, int64, error) {
	t.Helper()
	db := openDemo(t)
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	return tetsql.WriteParquetPartitioned(dir, rows, by, opts)
}

// pqDataset is every file of a partitioned export: its path relative to
// the root (slashes), its column names and its rows.
type pqDataset map[string]struct {
	cols []string
	rows []parquet.Row
}

func readDataset(t *testing.T, root string) pqDataset {
	t.Helper()
	ds := pqDataset{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, rows := readParquet(t, b)
		var cols []string
		for _, fl := range f.Schema().Fields() {
			cols = append(cols, fl.Name())
		}
		rel, _ := filepath.Rel(root, path)
		ds[filepath.ToSlash(rel)] = struct {
			cols []string
			rows []parquet.Row
		}{cols, rows}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func TestWriteParquetPartitionedLayout(t *testing.T) {
	const n = 1000
	dir := filepath.Join(t.TempDir(), "out")
	files, got, err := partitioned(t, pqSeries(n), dir, []string{"k", "g"}, tetsql.ParquetOptions{RowGroupRows: 64})
	if err != nil {
		t.Fatal(err)
	}
	if got != n {
		t.Errorf("rows = %d, want %d", got, n)
	}
	// The dataset directory is made like those inside it (0777 less the
	// umask), not 0700 as a temporary directory.
	top, err1 := os.Stat(dir)
	sub, err2 := os.Stat(filepath.Join(dir, "k=p q"))
	if err1 != nil || err2 != nil || top.Mode().Perm() != sub.Mode().Perm() {
		t.Errorf("dataset directory %v, a partition directory %v (%v, %v)", top.Mode(), sub.Mode(), err1, err2)
	}
	ds := readDataset(t, dir)
	if files != len(ds) || files != 4*3 { // 4 key directories (NULL and '' share one) × 3 g values
		t.Errorf("files = %d, found %d, want 12", files, len(ds))
	}
	seen := make([]bool, n)
	for path, f := range ds {
		if !slices.Equal(f.cols, []string{"i", "x"}) {
			t.Errorf("%s: columns %v, want [i x] (partition columns left out)", path, f.cols)
		}
		for _, r := range f.rows {
			i := r[0].Int64()
			if i < 0 || i >= n || seen[i] {
				t.Fatalf("%s: row i=%d out of range or seen twice", path, i)
			}
			seen[i] = true
			if x := r[1].Double(); x != float64(i)*0.5 {
				t.Errorf("%s: i=%d x=%v, want %v", path, i, x, float64(i)*0.5)
			}
			want := fmt.Sprintf("k=%s/g=%d/part-0.parquet", pqKeyDir(i), i%3)
			if path != want {
				t.Errorf("row i=%d in %s, want %s", i, path, want)
			}
		}
	}
	for i, ok := range seen {
		if !ok {
			t.Fatalf("row i=%d missing", i)
		}
	}
	if ents, _ := os.ReadDir(filepath.Dir(dir)); len(ents) != 1 {
		t.Errorf("parent holds %d entries, want only the output (no temporary left)", len(ents))
	}
}

func TestWriteParquetPartitionedOpenFileCap(t *testing.T) {
	const n = 30
	dir := filepath.Join(t.TempDir(), "out")
	// g cycles 0,1,2: with two files open every row needs a new one.
	files, got, err := partitioned(t, pqSeries(n), dir, []string{"g"}, tetsql.ParquetOptions{MaxOpenFiles: 2})
	if err != nil {
		t.Fatal(err)
	}
	if files != n || got != n {
		t.Errorf("files, rows = %d, %d; want %d, %d", files, got, n, n)
	}
	ds := readDataset(t, dir)
	for i := int64(0); i < n; i++ {
		path := fmt.Sprintf("g=%d/part-%d.parquet", i%3, i/3)
		f, ok := ds[path]
		if !ok || len(f.rows) != 1 || f.rows[0][0].Int64() != i {
			t.Errorf("%s: want exactly row i=%d, got %v", path, i, f.rows)
		}
		if ok && !slices.Equal(f.cols, []string{"i", "x", "k"}) {
			t.Errorf("%s: columns %v", path, f.cols)
		}
	}
	if len(ds) != n {
		t.Errorf("%d files, want %d", len(ds), n)
	}
}

func TestWriteParquetPartitionedFailures(t *testing.T) {
	failing := `WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM s WHERE i < 999)
SELECT i, CASE WHEN i = 700 THEN json('{') ELSE i END AS v, i%7 AS g FROM s`
	for _, tc := range []struct {
		name, q string
		by      []string
		prepare func(dir string) // makes the output directory
		want    string
		is      error
	}{
		{name: "query fails midway", q: failing, by: []string{"g"}, want: "malformed JSON"},
		{name: "missing column", q: pqSeries(10), by: []string{"k", "nope"}, want: `partition column "nope" is not in the result`},
		{name: "twice", q: pqSeries(10), by: []string{"g", "g"}, want: "given twice"},
		{name: "all columns", q: "SELECT 1 AS a", by: []string{"a"}, want: "every column"},
		{name: "non-empty dir", q: pqSeries(10), by: []string{"g"}, is: tetsql.ErrOutputExists,
			prepare: func(dir string) {
				os.Mkdir(dir, 0o777)
				os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("mine"), 0o666)
			}},
		{name: "a file", q: pqSeries(10), by: []string{"g"}, is: tetsql.ErrOutputExists,
			prepare: func(dir string) { os.WriteFile(dir, []byte("mine"), 0o666) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "out")
			if tc.prepare != nil {
				tc.prepare(dir)
			}
			_, _, err := partitioned(t, tc.q, dir, tc.by, tetsql.ParquetOptions{MaxOpenFiles: 3})
			if err == nil || !strings.Contains(err.Error(), tc.want) || (tc.is != nil && !errors.Is(err, tc.is)) {
				t.Fatalf("err = %v, want one containing %q (is %v)", err, tc.want, tc.is)
			}
			ents, _ := os.ReadDir(parent)
			switch {
			case tc.prepare == nil && len(ents) != 0:
				t.Errorf("left %v behind", ents)
			case tc.prepare != nil && len(ents) != 1:
				t.Errorf("parent holds %v, want only the existing output", ents)
			}
			if tc.prepare != nil {
				if b, err := os.ReadFile(filepath.Join(dir, "keep.txt")); err == nil && string(b) != "mine" {
					t.Errorf("existing file changed")
				}
			}
		})
	}
}

func TestWriteParquetPartitionedEmptyDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	var tmp string
	opts := tetsql.ParquetOptions{OnTempDir: func(p string) {
		tmp = p
		if st, err := os.Stat(p); err != nil || !st.IsDir() || filepath.Dir(p) != filepath.Dir(dir) {
			t.Errorf("OnTempDir(%s): not a directory beside %s (%v)", p, dir, err)
		}
	}}
	files, n, err := partitioned(t, pqSeries(6), dir+string(filepath.Separator), []string{"g"}, opts)
	if _, serr := os.Stat(tmp); tmp == "" || !os.IsNotExist(serr) {
		t.Errorf("temporary directory %q: OnTempDir not called or still there (%v)", tmp, serr)
	}
	if err != nil || files != 3 || n != 6 {
		t.Fatalf("files, rows, err = %d, %d, %v; want 3, 6, nil", files, n, err)
	}
	if len(readDataset(t, dir)) != 3 {
		t.Error("want 3 files in the existing empty directory")
	}
	if ents, _ := os.ReadDir(filepath.Dir(dir)); len(ents) != 1 {
		t.Errorf("parent holds %v, want only the output", ents)
	}
}

func TestHiveEscape(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	q := `SELECT 1 AS v, 'x/y=z%' || char(10) || ':*?' AS "a=b", 2.5 AS r, NULL AS nul`
	if _, _, err := partitioned(t, q, dir, []string{"a=b", "r", "nul"}, tetsql.ParquetOptions{}); err != nil {
		t.Fatal(err)
	}
	want := "a%3Db=x%2Fy%3Dz%25%0A%3A%2A%3F/r=2.5/nul=" + tetsql.HiveNullPartition + "/part-0.parquet"
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(want))); err != nil {
		t.Errorf("want %s: %v", want, err)
	}
}
