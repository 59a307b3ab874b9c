package vtab_test

import "testing"

// TestRev_argRowidsPointAtCells: argmin/argmax of the aggregate table
// are rowids of the cells table holding the extreme, also under file
// terms and grouping.
func TestRev_argRowidsPointAtCells(t *testing.T) {
	run, _ := revSetup(t)
	for _, q := range []string{
		`SELECT a.min = (SELECT value FROM m WHERE rowid = a.argmin), a.max = (SELECT value FROM m WHERE rowid = a.argmax) FROM m_agg AS a`,
		`SELECT a.min = (SELECT value FROM m WHERE rowid = a.argmin), a.max = (SELECT value FROM m WHERE rowid = a.argmax) FROM m_agg AS a WHERE month = '07'`,
		`SELECT a.min = (SELECT value FROM m WHERE rowid = a.argmin), a.max = (SELECT value FROM m WHERE rowid = a.argmax) FROM m_agg AS a WHERE by = 'year'`,
		`SELECT a.min = (SELECT value FROM m WHERE rowid = a.argmin), a.max = (SELECT value FROM m WHERE rowid = a.argmax) FROM m_agg AS a WHERE by = 'lat' AND year = '2021'`,
	} {
		got, err := run(q)
		if err != nil || len(got) == 0 {
			t.Errorf("%s: %v %v", q, got, err)
			continue
		}
		for _, r := range got {
			if r != "1|1" {
				t.Errorf("%s: %v", q, got)
				break
			}
		}
	}
	got, err := run(`SELECT (SELECT count(*) FROM m) = (SELECT count(DISTINCT rowid) FROM m), (SELECT count(*) FROM m) = (SELECT count(*) FROM native)`)
	if err != nil || len(got) != 1 || got[0] != "1|1" {
		t.Errorf("rowids unique over the table: %v %v", got, err)
	}
}
