package repl_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
	"github.com/tetsql/tetsql/tetcore"
)

// TestDatasets_showsAdjustedTableNames: .datasets names the tables of a
// dataset whose name had to be adjusted (docs/SQL.md, Table names), and
// only those.
func TestDatasets_showsAdjustedTableNames(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "names.tet")
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"Temp", "temp", "tet_x"} {
		if err := w.AddDataset(tetcore.DatasetSpec{Name: n, DType: tetcore.U8, Shape: []int64{3}, ChunkShape: []int64{3}}); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; ; i++ {
		if _, _, _, _, ok := w.NextChunk(); !ok {
			break
		}
		if err := w.WriteChunk([]byte{byte(i), 1, 2}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, repl.Options{}, path)
	e.exec(t, ".datasets")
	out := e.stdout.String()
	for _, want := range []string{"tables temp_2, temp_2_agg", "tables _tet_x, _tet_x_agg"} {
		if !strings.Contains(out, want) {
			t.Errorf(".datasets lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "    tables ") != 2 {
		t.Errorf(".datasets shows tables for an unchanged name:\n%s", out)
	}
	e.exec(t, "SELECT sum(value) FROM temp_2; SELECT sum FROM _tet_x_agg;")
	if got := e.stdout.String()[len(out):]; got != "4\n5\n" {
		t.Errorf("queries on the adjusted tables gave %q, want the sums 4 (dataset temp: 1+1+2) and 5 (tet_x: 2+1+2)", got)
	}
}
