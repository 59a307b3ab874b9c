package vtab_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/vtab"
)

// FuzzAggBy feeds arbitrary by arguments to an aggregate of a 30×5 grid:
// a by either fails with an error naming by, or every element is counted
// exactly once, in no more groups than elements; and an item that parses
// reads back the same from its canonical spelling.
func FuzzAggBy(f *testing.F) {
	for _, s := range []string{"time/5", "time/5,station/2", "TIME / 7 , station", "time/0", "time/-1", "time/x",
		"/3", "time/", "time//2", "time/2/3", "time/+3", "time/1e2", "time/99999999999999999999", "time/2,time/3",
		"station/4611686018427387904", "station/9223372036854775807", ",,time/3,", "time/ 3", "tim\x00e/2"} {
		f.Add(s)
	}
	db, _ := openDB(f, map[string]string{"st": writeStations(f)})
	f.Fuzz(func(t *testing.T, by string) {
		for _, item := range strings.Split(by, ",") {
			name, k, err := vtab.ParseByItem(item)
			if err != nil {
				continue
			}
			if k < 1 {
				t.Fatalf("%q: k = %d", item, k)
			}
			if strings.Contains(item, "/") {
				n2, k2, err := vtab.ParseByItem(fmt.Sprintf("%s/%d", name, k))
				if err != nil || n2 != name || k2 != k {
					t.Fatalf("%q: %q/%d reads back as %q/%d, %v", item, name, k, n2, k2, err)
				}
			}
		}
		var total, groups int64
		err := db.QueryRow("SELECT coalesce(sum(count), 0), count(*) FROM st.temp_agg(?)", by).Scan(&total, &groups)
		if err != nil {
			if !strings.Contains(err.Error(), "by: ") {
				t.Fatalf("%q: %v", by, err)
			}
			return
		}
		if total != 150 || groups < 1 || groups > 150 {
			t.Fatalf("%q: %d elements in %d groups", by, total, groups)
		}
	})
}
