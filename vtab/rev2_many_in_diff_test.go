package vtab_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestRev2_manyInDifferential: IN lists and IN subqueries on the file
// and hive columns of a many-file table (cells and _agg), alone and
// with IN lists on dims and labels, give the answers of a native table
// holding the union of the files.
func TestRev2_manyInDifferential(t *testing.T) {
	dir := t.TempDir()
	paths := manyYear(t, dir)
	db, sess := openDB(t, nil)
	nativeUnion(t, db, sess, dir, paths)
	glob := dir + "/**/*.tet"
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE main.m USING tet_many('%s', 't2m')`, glob))
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE main.m_agg USING tet_many('%s', 't2m', 'kind=agg')`, glob))
	mustExec(t, db, "CREATE TABLE ints(x INTEGER)")
	mustExec(t, db, "INSERT INTO ints VALUES (1), (2), (2), (12), (2021), (NULL)")
	mustExec(t, db, "CREATE TABLE texts(s TEXT)")
	mustExec(t, db, "INSERT INTO texts VALUES ('01'), ('02'), ('02'), ('2021'), (NULL), ('1')")
	rhs := []string{"('01', '02')", "('01', '01')", "(1, 2)", "(NULL)", "(NULL, '03')", "()", "('2021')", "(2021)",
		"(SELECT x FROM ints)", "(SELECT s FROM texts)", "(SELECT x + 0.0 FROM ints)", "(SELECT s FROM texts WHERE 0)"}
	cols := []string{"month", "year", "month COLLATE NOCASE"}
	extra := []string{"", " AND lat IN (0, 2)", " AND lat_label IN (10, 40)", " AND time_label IN ('2020-01-03', '2021-02-28', '2020-02-29')", " AND time IN (SELECT x FROM ints)"}
	bad := 0
	for _, col := range cols {
		for _, r := range rhs {
			for _, ex := range extra {
				for _, shape := range []string{"%s IN %s", "%s NOT IN %s", "(%s IN %s OR lon = 3)"} {
					where := fmt.Sprintf(shape, col, r) + ex
					q := "SELECT count(*), count(value), sum(value) FROM %s WHERE " + where
					got, err := tryRows(db, fmt.Sprintf(q, "m"))
					want := rowsOf(t, db, fmt.Sprintf(q, "native"))
					if err != nil || !rev2Same(got, want) {
						if bad++; bad <= 30 {
							t.Errorf("m WHERE %s: %v (err %v), native %v", where, got, err, want)
						}
					}
					if shape != "%s IN %s" || strings.Contains(col, "COLLATE") {
						continue
					}
					got, err = tryRows(db, "SELECT count, sum FROM m_agg WHERE "+where)
					want = rowsOf(t, db, "SELECT count(value), sum(value) FROM native WHERE "+where)
					if err != nil && (strings.Contains(err.Error(), "TEXT") || strings.Contains(err.Error(), "affinity")) {
						continue // refused, as documented
					}
					if err == nil && len(got) == 0 && sameRows(want, []string{"0|<nil>"}) {
						continue
					}
					if err != nil || !rev2Same(got, want) {
						if bad++; bad <= 30 {
							t.Errorf("m_agg WHERE %s: %v (err %v), native %v", where, got, err, want)
						}
					}
				}
			}
		}
	}
}

// rev2Same compares results exactly, or numbers to a relative 1e-6.
func rev2Same(got, want []string) bool {
	return strings.Join(got, "\n") == strings.Join(want, "\n") || sameRowsTol(got, want, 1e-6)
}
