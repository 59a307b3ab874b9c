package vtab_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRev_hiveKeysNamedLikeColumns: hive keys named as the aggregate
// table's hidden or output columns are refused at CREATE with a clear
// message, never a table whose by/q are shadowed.
func TestRev_hiveKeysNamedLikeColumns(t *testing.T) {
	for _, key := range []string{"by", "BY", "q", "count", "argmin", "value", "lat_label", "rowid", "oid", "_rowid_"} {
		dir := t.TempDir()
		rng := rand.New(rand.NewPCG(1, 1))
		p := manyMonth(t, dir, 2020, 1, 3, rng)
		sub := filepath.Join(dir, key+"=x")
		os.MkdirAll(sub, 0o755)
		os.Rename(filepath.Dir(filepath.Dir(p)), filepath.Join(sub, "year=2020"))
		db, _ := openDB(t, nil)
		for _, kind := range []string{"cells", "agg"} {
			_, err := db.Exec(fmt.Sprintf(`CREATE VIRTUAL TABLE t_%s USING tet_many('%s/**/*.tet', 't2m', 'kind=%s')`, kind, dir, kind))
			if err == nil {
				// Accepted: the key must then be readable and by still work.
				q := fmt.Sprintf(`SELECT "%s" FROM t_%s LIMIT 1`, key, kind)
				got, err := db.Query(q)
				if err != nil {
					t.Errorf("key %s (%s): accepted, but %s: %v", key, kind, q, err)
					continue
				}
				var v any
				got.Next()
				got.Scan(&v)
				got.Close()
				if fmt.Sprint(v) != "x" {
					t.Errorf("key %s (%s): accepted, column reads %v, want x", key, kind, v)
				}
				if kind == "agg" {
					if _, err := db.Exec(`SELECT count FROM t_agg WHERE by = 'lat'`); err != nil {
						t.Errorf("key %s: by: %v", key, err)
					}
				}
				continue
			}
			if !strings.Contains(err.Error(), key) {
				t.Errorf("key %s (%s): %v, want an error naming the key", key, kind, err)
			}
		}
	}
}
