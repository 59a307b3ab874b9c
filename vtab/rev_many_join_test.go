package vtab_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestRev_joinsOnHiveColumns: random joins of the many cells table with
// a native table whose columns have INTEGER, TEXT, REAL, NUMERIC, BLOB
// and no affinity, on file and hive columns.
func TestRev_joinsOnHiveColumns(t *testing.T) {
	run, _ := revSetup(t)
	if _, err := run(`CREATE TABLE main.k(i INTEGER, s TEXT, r REAL, n NUMERIC, b BLOB, a)`); err != nil {
		t.Fatal(err)
	}
	if _, err := run(`INSERT INTO main.k VALUES (1, '01', 1.0, '01', x'3031', '01'), (2, '2', 2.5, 2, '02', 2),
		(11, '11', 11.0, '11.0', 11, 11.0), (2020, '2020', 2020.0, 2020, '2020', '2020'), (3, ' 03', 3.0, '3e0', x'', x'3033')`); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(21, 7))
	ops := []string{"=", "<", "<=", ">", ">=", "<>", "IS", "IS NOT", "LIKE", "GLOB"}
	bad := 0
	for range 300 {
		col := []string{"month", "year"}[r.IntN(2)]
		kc := []string{"i", "s", "r", "n", "b", "a", "+i", "CAST(i AS TEXT)", "i + 0.5"}[r.IntN(9)]
		op := ops[r.IntN(len(ops))]
		on := fmt.Sprintf("m.%s %s k.%s", col, op, kc)
		if kc[0] == '+' || kc[0] == 'C' || kc[0] == 'i' && len(kc) > 1 {
			on = fmt.Sprintf("m.%s %s %s", col, op, kc)
			if kc[0] == '+' {
				on = fmt.Sprintf("m.%s %s +k.i", col, op)
			}
		}
		on = fmt.Sprintf("%s AND m.lat = %d", on, r.IntN(4))
		q := fmt.Sprintf("SELECT k.i, count(*), sum(m.value) FROM k JOIN m ON %s GROUP BY k.i ORDER BY k.i", on)
		nq := fmt.Sprintf("SELECT k.i, count(*), sum(m.value) FROM k JOIN native AS m ON %s GROUP BY k.i ORDER BY k.i", on)
		got, err1 := run(q)
		want, err2 := run(nq)
		if (err1 == nil) != (err2 == nil) || !sameRows(got, want) {
			bad++
			if bad < 10 {
				t.Errorf("%s\n got %v %v\nwant %v %v", q, got, err1, want, err2)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of 300 differ", bad)
	}
}
