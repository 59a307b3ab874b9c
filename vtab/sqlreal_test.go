package vtab

import (
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	_ "modernc.org/sqlite" // SQLite itself, the reference
)

// TestSQLiteRealMatchesSQLite checks sqliteReal against SQLite's own
// conversion of the same text (CAST AS REAL runs sqlite3AtoF, as numeric
// affinity does), bit for bit, on texts of up to 30 significant digits
// (SQLite keeps 19 or 20 and drops the rest), with exponents from
// subnormal to overflow, signs and surrounding white space.
func TestSQLiteRealMatchesSQLite(t *testing.T) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rng := rand.New(rand.NewPCG(7, 11))
	texts := []string{"0.1", "1e400", "-1e400", "1e-400", "4.9406564584124654e-324", "2.4703282292062327e-324",
		"2.4703282292062328e-324", "1.7976931348623157e308", "1.7976931348623158e308", "9223372036854775808",
		"18446744073709551615", "18446744073709551616", "123456789012345678901234567890", "0.30000000000000004441",
		"1.00000000000000011102230246251565404236316680908203125", " 2.5 ", "-0.0", "+.5e1", "5.", "1e10000000000"}
	digits := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteByte(byte('0' + rng.IntN(10)))
		}
		return b.String()
	}
	for i := 0; i < 20000; i++ {
		ip, fp := digits(rng.IntN(22)), digits(rng.IntN(22))
		if ip == "" && fp == "" {
			ip = "1"
		}
		s := ip + "." + fp
		if rng.IntN(2) == 0 {
			s += fmt.Sprintf("e%d", rng.IntN(700)-350)
		}
		if rng.IntN(4) == 0 {
			s = "-" + s
		}
		texts = append(texts, s)
	}
	stmt, err := db.Prepare("SELECT CAST(?1 AS REAL)")
	if err != nil {
		t.Fatal(err)
	}
	bad := 0
	for _, s := range texts {
		if _, ok := parseNumeric(s); !ok {
			t.Fatalf("%q: not numeric", s)
		}
		var want float64
		if err := stmt.QueryRow(s).Scan(&want); err != nil {
			t.Fatal(err)
		}
		if got := sqliteReal(s); math.Float64bits(got) != math.Float64bits(want) && !(got == 0 && want == 0) {
			if bad++; bad < 10 {
				t.Errorf("%q: got %v (%x), SQLite %v (%x)", s, got, math.Float64bits(got), want, math.Float64bits(want))
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d texts differ", bad, len(texts))
	}
}
