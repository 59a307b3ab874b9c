package vtab_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestMetaTables_orAndCollateMatchNative runs WHERE clauses with OR plans
// and collations on the metadata tables and on native copies of them.
func TestMetaTables_orAndCollateMatchNative(t *testing.T) {
	db, _ := openDB(t, map[string]string{"demo": "../testdata/demo.tet"})
	tables := map[string]string{ // table → a second column to constrain
		"tet_datasets": "ndim", "tet_dims": "name", "tet_chunks": "chunk",
		"tet_coords": "idx", "tet_attrs": "key",
	}
	wheres := []string{
		"dataset = 'temperature' OR (dataset = 'pressure' AND %[1]s IS NOT NULL)",
		"(dataset = 'elevation' AND %[1]s IS NOT NULL) OR dataset = 'location'",
		"dataset = 'TEMPERATURE' COLLATE NOCASE",
		"dataset = 'temperature' OR dataset = 'Pressure' COLLATE NOCASE",
		"dataset = 'temperature ' COLLATE RTRIM OR dataset IS NULL",
		"dataset IN ('temperature', 'Elevation')",
		"dataset = 'elevation' OR %[1]s = 0",
	}
	for tbl, col := range tables {
		name := "dataset"
		if tbl == "tet_datasets" {
			name = "name" // its dataset column is "name"
		}
		if _, err := db.Exec(fmt.Sprintf("CREATE TABLE main.n_%s AS SELECT * FROM demo.%s", tbl, tbl)); err != nil {
			t.Fatal(err)
		}
		for _, w := range wheres {
			w := strings.ReplaceAll(w, "%[1]s", col)
			if name != "dataset" {
				w = replaceWord(w, "dataset", name)
			}
			q := "SELECT * FROM %s WHERE " + w + " ORDER BY 1, 2, 3"
			want := rowsOf(t, db, fmt.Sprintf(q, "main.n_"+tbl))
			got := rowsOf(t, db, fmt.Sprintf(q, "demo."+tbl))
			if !slices.Equal(got, want) || len(want) == 0 && tbl != "tet_attrs" {
				t.Errorf("%s WHERE %s:\ngot  %v\nwant %v", tbl, w, got, want)
			}
		}
	}
}

func replaceWord(s, old, new string) string {
	out := ""
	for i := 0; i < len(s); {
		if i+len(old) <= len(s) && s[i:i+len(old)] == old && (i == 0 || !isIdent(s[i-1])) &&
			(i+len(old) == len(s) || !isIdent(s[i+len(old)])) {
			out += new
			i += len(old)
			continue
		}
		out += s[i : i+1]
		i++
	}
	return out
}
