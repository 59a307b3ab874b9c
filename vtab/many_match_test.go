package vtab

import (
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	_ "modernc.org/sqlite" // SQLite itself, the reference

	"github.com/tetsql/tetsql/internal/sqlitevt"
)

// matchOps are the operators textMatch answers, with their SQL.
var matchOps = []struct {
	op  sqlitevt.ConstraintOp
	sql string
}{
	{sqlitevt.OpEQ, "v = ?"},
	{sqlitevt.OpNE, "v <> ?"},
	{sqlitevt.OpLT, "v < ?"},
	{sqlitevt.OpLE, "v <= ?"},
	{sqlitevt.OpGT, "v > ?"},
	{sqlitevt.OpGE, "v >= ?"},
	{sqlitevt.OpIS, "v IS ?"},
	{sqlitevt.OpISNOT, "v IS NOT ?"},
	{sqlitevt.OpLIKE, "v LIKE ?"},
	{sqlitevt.OpGLOB, "v GLOB ?"},
	{sqlitevt.OpISNULL, "v IS NULL AND coalesce(?, 1) IS NOT NULL"},
	{sqlitevt.OpISNOTNULL, "v IS NOT NULL AND coalesce(?, 1) IS NOT NULL"},
}

// matchValues are the column values of the differential tests.
func matchValues() []*string {
	base := []string{
		"", " ", "a", "A", "b", "B", "z", "Z", "ab", "aB", "Ab", "abc", "ABC", "abd", "abcd",
		"2020", "02", "2", "20", "1e3", "1000", "3.0", "3", "-1", "+1", " 5", "5 ", "5", "0.0",
		"1.0e+20", "Inf", "-Inf", "100000000000000.0", "9007199254740991.0", "-7.0", "-7",
		"É", "é", "e", "E", "Éa", "éA", "ÉCOLE", "école", "über", "ÜBER", "日本", "日本語", "本",
		"ß", "ẞ", "🙂", "a🙂b", "a🙂🙂b", "Ω", "ω",
		"%", "_", "[", "]", "*", "?", "^", "-", "\\", "%%", "a%b", "a_b", "a[b", "a]b", "a*b",
		"a?b", "[]", "[a]", "^a", "a-c", "x^y",
		"/data/year=2020/month=01/f.tet", "/data/year=2021/month=12/f.tet",
		"/data/year=2020/month=1/g.b2nd", "data/a=b=c/x", "year=2020", "month=01", "a/b/c",
		"/", "//", "=", "a=", "=a", "ab\x00c", "\x00", "\xff", "a\xffb", "\xc3", "\xc3(",
		"\x80", "\xed\xa0\x80", "\xe6\x97", "\xf0\x9f\x99", "tab\there", "line\nbreak",
		"🙂\x80", "a\xc0\x80b", "\xc1\x81", "\xf4\x90\x80\x80", "\xef\xbf\xbd", "\xf8\x88\x80\x80\x80",
		"\xc3\x80\x80\x80\x80\x80\x80", "\xbf", "a\x80\x80b",
	}
	seen := map[string]bool{}
	var vals []*string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			vals = append(vals, &s)
		}
	}
	for _, s := range base {
		add(s)
	}
	for _, s := range base[:60] {
		add(s + "x")
		add("x" + s)
		add(strings.ToUpper(s))
		add(s + "/" + s)
	}
	return append(vals, nil, nil)
}

// matchArgs are the right-hand values of the differential tests: texts
// that are also LIKE and GLOB patterns, numbers, REALs, BLOBs, NULL.
func matchArgs(vals []*string) []sqlitevt.Value {
	pats := []string{
		"", "%", "_", "*", "?", "%%", "**", "_%", "%_", "?*", "*?", "__", "??", "a%", "%a", "%a%",
		"A%", "a_", "_b", "a*", "*a", "*a*", "A*", "a?", "?b", "é%", "É%", "%É%", "É_", "_é",
		"?é", "É?", "日%", "%本%", "*本*", "日?", "日_", "[a]", "[a-c]", "[a-c]*", "*[a-c]",
		"*[a-c]*", "[^a]", "[^a-c]*", "[]]", "[]a]", "[^]]", "[^]a]*", "[a-]", "[-a]", "[a-c-e]",
		"[c-a]", "[", "[a", "a[", "*[", "[^", "[]", "[^]", "[É-é]", "[À-ÿ]*", "[🙂]", "*[🙂]*",
		"a[🙂]b", "a?b", "a_b", "a%b", "a*b", "%/year=2020/%", "*/year=2020/*", "*year=202[01]*",
		"*month=?/*", "%.tet", "*.tet", "*.b2nd", "%=%", "*=*", "[*]", "[?]", "[%]", "[_]",
		"\\%", "%\\%", "%%%", "a%%b", "*?*", "%_%", "[[]", "[]]*", "*]", "x^y", "[x^y]",
		"\xff", "%\xff%", "*\xff*", "\xc3", "%\xc3", "\xc3%", "?\xc3", "[\x80-\xff]*", "\x80",
		"%\x80%", "\xed\xa0\x80", "?", "_\x00x", "%\x00", "ab\x00zz", "2020", "02", "2", "1e3",
		"3.0", "5", "0.0", "Inf", "-Inf", "1000", "-7.0",
		"\xef\xbf\xbd", "[\xef\xbf\xbd]", "*\xef\xbf\xbd*", "%\xef\xbf\xbd%", "a_b", "a??b", "a__b",
		"[\x80-\xbf]", "*[\xc3\x80-\xef\xbf\xbd]*", "\xc3\x80\x80", "A\xc3\x80\x80\x80%",
	}
	var args []sqlitevt.Value
	for _, p := range pats {
		args = append(args, p)
	}
	for _, v := range vals {
		if v != nil {
			args = append(args, *v)
		}
	}
	for _, n := range []int64{0, 1, 2, 3, 5, 20, 02, 1000, 2020, 2021, -1, -7, 9, 10, 99,
		math.MaxInt64, math.MinInt64} {
		args = append(args, n)
	}
	for _, f := range []float64{0, math.Copysign(0, -1), 1, 3, 5, -7, 1000, 2020, 2.5, 0.5, 0.1,
		1e3, 1e14, 1e15, 1e16, 1e17, 1e20, 1e-5, 9007199254740991, 9007199254740992, -1e14,
		123456789012345, math.Inf(1), math.Inf(-1), math.NaN(), math.MaxFloat64,
		math.SmallestNonzeroFloat64} {
		args = append(args, f)
	}
	for _, b := range []string{"", "a", "%", "*", "2020", "\xff", "ab", "A"} {
		args = append(args, []byte(b))
	}
	return append(args, nil)
}

// openMatchDB is a plain SQLite connection holding t(v TEXT) with vals
// (rowid i+1 for vals[i]).
func openMatchDB(t testing.TB, vals []*string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("CREATE TABLE t(v TEXT)"); err != nil {
		t.Fatal(err)
	}
	for i, v := range vals {
		var a any
		if v != nil {
			a = *v
		}
		if _, err := db.Exec("INSERT INTO t(rowid, v) VALUES (?, ?)", i+1, a); err != nil {
			t.Fatal(err)
		}
	}
	// The values must arrive as they were: a NUL or a stray byte lost on
	// the way would make the reference answer for another value.
	for i, v := range vals {
		var got sql.NullString
		if err := db.QueryRow("SELECT v FROM t WHERE rowid = ?", i+1).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got.Valid != (v != nil) || (v != nil && got.String != *v) {
			t.Fatalf("row %d stored as %q, want %q", i+1, got.String, *v)
		}
	}
	return db
}

// sqliteRows is the set of rowids for which SQLite says "v <op> arg".
func sqliteRows(t testing.TB, db *sql.DB, where string, arg any) (map[int64]bool, error) {
	t.Helper()
	rows, err := db.Query("SELECT rowid FROM t WHERE "+where, arg)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	got := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		got[id] = true
	}
	return got, rows.Err()
}

func showValue(v *string) string {
	if v == nil {
		return "NULL"
	}
	return fmt.Sprintf("%q", *v)
}

// checkAgainst compares textMatch with SQLite's answer for one value.
func checkAgainst(t testing.TB, v *string, op sqlitevt.ConstraintOp, where string, arg sqlitevt.Value, want bool) (exact bool) {
	t.Helper()
	match, exact := textMatch(v, op, arg)
	switch {
	case !exact && !match:
		t.Errorf("%s with v=%s, ?=%#v: inexact answer false", where, showValue(v), arg)
	case exact && match != want:
		t.Errorf("%s with v=%s, ?=%#v: textMatch %v, SQLite %v", where, showValue(v), arg, match, want)
	case !exact && want && !match:
		t.Errorf("%s with v=%s, ?=%#v: maybe answer false but SQLite true", where, showValue(v), arg)
	}
	return exact
}

// TestTextMatch_againstSQLite: for every value, operator and right-hand
// side, textMatch's exact answers are SQLite's, and its maybe answers
// are true.
func TestTextMatch_againstSQLite(t *testing.T) {
	vals := matchValues()
	db := openMatchDB(t, vals)
	args := matchArgs(vals)
	var total, exactN int
	inexactKinds := map[string]int{}
	pattern := map[sqlitevt.ConstraintOp]bool{sqlitevt.OpLIKE: true, sqlitevt.OpGLOB: true}
	for _, o := range matchOps {
		for _, arg := range args {
			got, err := sqliteRows(t, db, o.sql, arg)
			if err != nil {
				t.Fatalf("%s with %#v: %v", o.sql, arg, err)
			}
			for i, v := range vals {
				total++
				if checkAgainst(t, v, o.op, o.sql, arg, got[int64(i+1)]) {
					exactN++
				} else {
					if pattern[o.op] {
						if _, ok := arg.(float64); !ok {
							t.Errorf("%s with %#v: maybe", o.sql, arg)
						}
					}
					inexactKinds[fmt.Sprintf("%T", arg)]++
				}
			}
		}
	}
	// Maybes come only from REALs without a reproduced rendering and from
	// numbers (and texts) that NUMERIC affinity would compare otherwise
	// (see TestTextMatch_numericRHS); LIKE, GLOB, NULL and BLOB are exact.
	for k, n := range inexactKinds {
		if k != "float64" && k != "int64" && k != "string" {
			t.Errorf("inexact answers for %s right-hand sides: %d", k, n)
		}
	}
	if exactN < total*9/10 {
		t.Errorf("only %d of %d answers exact", exactN, total)
	}
	t.Logf("%d answers, %d exact", total, exactN)
}

// TestTextMatch_reals: the REALs textMatch renders are rendered as SQLite
// renders them (CAST AS TEXT), and a REAL it does not render is a maybe.
func TestTextMatch_reals(t *testing.T) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	reals := []float64{0, math.Copysign(0, -1), 1, -1, 7, 1e15 - 1, 1e15, 9e15, 1 << 52,
		1<<53 - 1, -(1<<53 - 1), math.Inf(1), math.Inf(-1)}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 { // whole numbers of every magnitude below 2^53
		f := float64(r.Int64N(1<<53) >> r.IntN(53))
		// Runs of nines: SQLite's digit generation trims and rounds
		// those (9.94e21 renders as 9.939999999999999e+21).
		n := int64(0)
		for range 1 + r.IntN(15) {
			n = n*10 + 9 - int64(r.IntN(3)/2*r.IntN(10))
		}
		reals = append(reals, f, -f, float64(n), float64(-n))
	}
	for _, f := range reals {
		s, ok := realText(f)
		if !ok {
			t.Fatalf("realText(%v) not rendered", f)
		}
		var want string
		if err := db.QueryRow("SELECT CAST(? AS TEXT)", f).Scan(&want); err != nil {
			t.Fatal(err)
		}
		if s != want {
			t.Errorf("realText(%v) = %q, SQLite %q", f, s, want)
		}
	}
	for _, f := range []float64{0.5, 1 << 53, 1e17, 9.94e21, 1e300, -2.5, 0.1} {
		if _, ok := realText(f); ok {
			t.Errorf("realText(%v) claims a rendering", f)
		}
		if m, ex := textMatch(ptr("x"), sqlitevt.OpEQ, f); !m || ex {
			t.Errorf("textMatch(x = %v) = %v, %v, want a maybe", f, m, ex)
		}
	}
}

func ptr(s string) *string { return &s }

// TestMatchAny_againstSQLite: "v IN (?, ?, ?)" as SQLite evaluates it,
// with lists mixing texts, numbers, REALs, BLOBs and NULL.
func TestMatchAny_againstSQLite(t *testing.T) {
	vals := matchValues()
	db := openMatchDB(t, vals)
	lists := []sqlitevt.InList{
		{"a", "b", "z"}, {"2020", int64(2021), nil}, {int64(3), 3.0, []byte("3")},
		{0.5, "a"}, {0.5, nil}, {nil, nil, nil}, {[]byte("a"), "A", "É"}, {"", "%", "_"},
		{int64(5), int64(-7), -7.0}, {math.NaN(), "x", "ab\x00c"},
	}
	for _, list := range lists {
		q := "SELECT rowid FROM t WHERE v IN (?" + strings.Repeat(", ?", len(list)-1) + ")"
		rows, err := db.Query(q, list...)
		if err != nil {
			t.Fatal(err)
		}
		want := map[int64]bool{}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			want[id] = true
		}
		rows.Close()
		for i, v := range vals {
			w := want[int64(i+1)]
			m, ex := matchAny(v, sqlitevt.OpEQ, list)
			if (ex && m != w) || (!ex && !m) {
				t.Errorf("v=%s IN %#v: matchAny %v (exact %v), SQLite %v", showValue(v), list, m, ex, w)
			}
		}
	}
	if m, ex := matchAny(ptr("a"), sqlitevt.OpEQ, nil); m || !ex {
		t.Errorf("IN (): %v, %v", m, ex)
	}
	if m, ex := matchAny(ptr("a"), sqlitevt.OpEQ, sqlitevt.InList{0.5, "a"}); !m || !ex {
		t.Errorf("IN (0.5, 'a') for 'a': %v, %v; an exact match decides", m, ex)
	}
	if m, ex := matchAny(ptr("b"), sqlitevt.OpEQ, sqlitevt.InList{0.5, "a"}); !m || ex {
		t.Errorf("IN (0.5, 'a') for 'b': %v, %v; want a maybe", m, ex)
	}
}

// TestTextMatch_otherOps: operators textMatch does not answer are maybes,
// and a pattern longer than SQLite allows is too (the query fails).
func TestTextMatch_otherOps(t *testing.T) {
	for _, op := range []sqlitevt.ConstraintOp{sqlitevt.OpUnknown, sqlitevt.OpMATCH,
		sqlitevt.OpREGEXP, sqlitevt.OpFUNCTION, sqlitevt.OpLIMIT, sqlitevt.OpOFFSET} {
		if m, ex := textMatch(ptr("a"), op, "b"); !m || ex {
			t.Errorf("op %d: %v, %v", op, m, ex)
		}
	}
	long := strings.Repeat("b", likePatternLimit+1)
	if m, ex := textMatch(ptr("a"), sqlitevt.OpLIKE, long); !m || ex {
		t.Errorf("long LIKE pattern: %v, %v", m, ex)
	}
	if m, ex := textMatch(ptr("a"), sqlitevt.OpLIKE, strings.Repeat("%", likePatternLimit)); !m || !ex {
		t.Errorf("longest LIKE pattern: %v, %v", m, ex)
	}
}

// FuzzTextMatch: on fuzzed values and right-hand sides (patterns, texts,
// numbers, REALs, BLOBs, NULL) and every operator, textMatch's exact
// answers are SQLite's and its maybe answers are true.
func FuzzTextMatch(f *testing.F) {
	seeds := []struct {
		v, arg string
		null   bool
		kind   uint8
		n      int64
		x      float64
		op     uint8
	}{
		{"abc", "a%", false, 0, 0, 0, 8},
		{"ABC", "a_C", false, 0, 0, 0, 8},
		{"/d/year=2020/f", "*year=202[0-9]*", false, 0, 0, 0, 9},
		{"École", "é%", false, 0, 0, 0, 8},
		{"日本語", "??語", false, 0, 0, 0, 9},
		{"a]b", "a[]]b", false, 0, 0, 0, 9},
		{"a-b", "a[^-]b", false, 0, 0, 0, 9},
		{"x", "[", false, 0, 0, 0, 9},
		{"", "", false, 0, 0, 0, 8},
		{"\xff\x80", "_", false, 0, 0, 0, 8},
		{"2020", "", false, 1, 2020, 0, 0},
		{"3.0", "", false, 2, 0, 3, 0},
		{"3.5", "", false, 2, 0, 3.5, 2},
		{"a", "a", false, 3, 0, 0, 3},
		{"a", "", false, 4, 0, 0, 6},
		{"", "", true, 4, 0, 0, 7},
		{"b", "a", false, 0, 0, 0, 4},
		{"ab\x00c", "ab", false, 0, 0, 0, 8},
		{"a", "a", true, 0, 0, 0, 10},
		{"02", "", false, 6, 2, 0, 0},
		{"3", "", false, 7, 0, 3.0, 2},
		{"1e3", "1000", false, 5, 0, 0, 0},
	}
	for _, s := range seeds {
		f.Add(s.v, s.null, s.arg, s.kind, s.n, s.x, s.op)
	}
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		f.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("CREATE TABLE t(v TEXT); INSERT INTO t VALUES (NULL)"); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, v string, null bool, arg string, kind uint8, n int64, x float64, op uint8) {
		var val *string
		var stored any
		if !null {
			val, stored = &v, v
		}
		var rhs sqlitevt.Value
		switch kind % 5 {
		case 0:
			rhs = arg
		case 1:
			rhs = n
		case 2:
			rhs = x
		case 3:
			rhs = []byte(arg)
		}
		o := matchOps[int(op)%len(matchOps)]
		if cast := kind / 5 % 3; cast > 0 && int(op)%len(matchOps) < 8 {
			// A right-hand side with NUMERIC affinity: xFilter would get
			// the value after the CAST.
			to := []string{"", "NUMERIC", "INTEGER"}[cast]
			o.sql = strings.Replace(o.sql, "?", "CAST(? AS "+to+")", 1)
			var after any
			if err := db.QueryRow("SELECT CAST(? AS "+to+")", rhs).Scan(&after); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec("UPDATE t SET v = ?", stored); err != nil {
				t.Fatal(err)
			}
			got, err := sqliteRows(t, db, o.sql, rhs)
			if err != nil {
				t.Fatal(err)
			}
			checkAgainst(t, val, o.op, o.sql, after, len(got) == 1)
			return
		}
		if _, err := db.Exec("UPDATE t SET v = ?", stored); err != nil {
			t.Fatal(err)
		}
		got, err := sqliteRows(t, db, o.sql, rhs)
		if err != nil { // a pattern SQLite refuses: only a maybe will do
			if _, exact := textMatch(val, o.op, rhs); exact {
				t.Fatalf("%s with v=%s, ?=%#v: exact, SQLite fails: %v", o.sql, showValue(val), rhs, err)
			}
			return
		}
		checkAgainst(t, val, o.op, o.sql, rhs, len(got) == 1)
	})
}

// TestTextMatch_numericRHS: a right-hand side with NUMERIC affinity (a
// CAST, a numeric column of a joined table) makes SQLite compare v as a
// number; xFilter gets only the value, so textMatch's exact answers must
// hold that way too.
func TestTextMatch_numericRHS(t *testing.T) {
	vals := matchValues()
	db := openMatchDB(t, vals)
	all := matchArgs(vals)
	for ci, cast := range []string{"NUMERIC", "INTEGER", "REAL"} {
		args := all
		if ci > 0 { // a sample of the arguments is enough for the others
			args = nil
			for j := ci; j < len(all); j += 4 {
				args = append(args, all[j])
			}
		}
		rhs := make([]any, len(args)) // what xFilter would get
		for j, arg := range args {
			if err := db.QueryRow("SELECT CAST(? AS "+cast+")", arg).Scan(&rhs[j]); err != nil {
				t.Fatal(err)
			}
		}
		for _, o := range matchOps[:8] { // the comparisons
			where := strings.Replace(o.sql, "?", "CAST(? AS "+cast+")", 1)
			for j, arg := range args {
				got, err := sqliteRows(t, db, where, arg)
				if err != nil {
					t.Fatal(err)
				}
				for i, v := range vals {
					checkAgainst(t, v, o.op, where, rhs[j], got[int64(i+1)])
				}
			}
		}
	}
	// A join on an INTEGER column is the case met in practice.
	if _, err := db.Exec("CREATE TABLE n(x INTEGER); INSERT INTO n VALUES (2), (2020), (3), (1000), (-7)"); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query("SELECT t.rowid, n.x FROM t, n WHERE t.v = n.x")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	joined := map[[2]int64]bool{}
	for rows.Next() {
		var id, x int64
		if err := rows.Scan(&id, &x); err != nil {
			t.Fatal(err)
		}
		joined[[2]int64{id, x}] = true
	}
	if !joined[[2]int64{int64(indexOf(vals, "02") + 1), 2}] {
		t.Fatalf("SQLite no longer says '02' = 2 in a join on an INTEGER column")
	}
	for i, v := range vals {
		for _, x := range []int64{2, 2020, 3, 1000, -7} {
			checkAgainst(t, v, sqlitevt.OpEQ, "t.v = n.x", x, joined[[2]int64{int64(i + 1), x}])
		}
	}
	// The common case stays exact: a hive value compared with a number.
	for _, c := range []struct {
		v    string
		arg  sqlitevt.Value
		want bool
	}{{"2020", int64(2020), true}, {"2021", int64(2020), false}, {"abc", int64(5), false}, {"2020", "2020", true}} {
		if m, ex := textMatch(&c.v, sqlitevt.OpEQ, c.arg); m != c.want || !ex {
			t.Errorf("%q = %#v: %v (exact %v), want %v exactly", c.v, c.arg, m, ex, c.want)
		}
	}
}

func indexOf(vals []*string, s string) int {
	for i, v := range vals {
		if v != nil && *v == s {
			return i
		}
	}
	return -1
}
