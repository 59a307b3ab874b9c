package output_test

import (
	"bytes"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

// The cross-check loads the first four sample columns into a native
// sqlite3 table, prints it with sqlite3 -csv -header and sqlite3 -json, and
// compares with our csv and json output value by value (after parsing both
// sides, since sqlite3 quotes CSV fields more eagerly than encoding/csv).
// Only the documented differences are normalised:
//
//   - floats: sqlite3 prints 15 (csv) or 17 (json) significant digits, we
//     print the shortest round-trip form, so floats are compared as numbers
//     to 15 digits; SQLite stores -0.0 as 0.0, and -0.0 == 0.0.
//   - blobs that are not UTF-8: sqlite3 writes the raw bytes (csv: up to
//     the first NUL; json: raw bytes the decoder turns into U+FFFD), we
//     write X'HEX'; the hex is decoded and compared the same way.
const crossCols = 4

func sqlite3(t *testing.T, flags ...string) []byte {
	t.Helper()
	bin, err := exec.LookPath("sqlite3")
	if err != nil {
		t.Skip("sqlite3 shell not installed (apt-get install sqlite3)")
	}
	var sql strings.Builder
	sql.WriteString("CREATE TABLE t(id INTEGER, f REAL, s TEXT, b BLOB);\n")
	for _, r := range sampleRows {
		sql.WriteString("INSERT INTO t VALUES(")
		for i, v := range r[:crossCols] {
			if i > 0 {
				sql.WriteString(", ")
			}
			sql.WriteString(sqlLiteral(v))
		}
		sql.WriteString(");\n")
	}
	sql.WriteString("SELECT * FROM t ORDER BY rowid;\n")
	cmd := exec.Command(bin, append(flags, ":memory:")...)
	cmd.Stdin = strings.NewReader(sql.String())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sqlite3: %v: %s", err, stderr.Bytes())
	}
	return out
}

func sqlLiteral(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		switch {
		case math.IsInf(x, 1):
			return "9e999"
		case math.IsInf(x, -1):
			return "-9e999"
		}
		return strconv.FormatFloat(x, 'e', -1, 64)
	case string:
		// Controls go through char(): the shell strips a CR before LF.
		var b strings.Builder
		b.WriteString("('")
		for _, r := range x {
			switch {
			case r == '\'':
				b.WriteString("''")
			case r < 0x20:
				fmt.Fprintf(&b, "'||char(%d)||'", r)
			default:
				b.WriteRune(r)
			}
		}
		b.WriteString("')")
		return b.String()
	case []byte:
		return "X'" + hex.EncodeToString(x) + "'"
	}
	panic(fmt.Sprintf("no SQL literal for %T", v))
}

func crossRows() ([]output.Column, [][]any) {
	rows := make([][]any, len(sampleRows))
	for i, r := range sampleRows {
		rows[i] = r[:crossCols]
	}
	return sampleCols[:crossCols], rows
}

// sameCell compares one of our cells with sqlite3's after the documented
// normalisation; col is the column index.
func sameCell(col int, ours, theirs string, jsonMode bool) bool {
	if ours == theirs {
		return true
	}
	switch sampleCols[col].Type {
	case "REAL":
		a, err1 := strconv.ParseFloat(ours, 64)
		b, err2 := strconv.ParseFloat(theirs, 64)
		if err1 != nil && !math.IsInf(a, 0) || err2 != nil && !math.IsInf(b, 0) {
			return false
		}
		return a == b || strconv.FormatFloat(a, 'g', 15, 64) == strconv.FormatFloat(b, 'g', 15, 64)
	case "BLOB":
		h, ok := strings.CutPrefix(ours, "X'")
		raw, err := hex.DecodeString(strings.TrimSuffix(h, "'"))
		if !ok || err != nil {
			return false
		}
		if jsonMode {
			return strings.ToValidUTF8(string(raw), "\uFFFD") == theirs ||
				replaceEachInvalid(raw) == theirs
		}
		if i := bytes.IndexByte(raw, 0); i >= 0 {
			raw = raw[:i]
		}
		return string(raw) == theirs
	}
	return false
}

// replaceEachInvalid replaces every invalid byte with U+FFFD, as
// encoding/json does.
func replaceEachInvalid(b []byte) string {
	var s strings.Builder
	for _, r := range string(b) {
		s.WriteRune(r)
	}
	return s.String()
}

func TestSQLite3_csv(t *testing.T) {
	t.Parallel()
	theirs, err := csv.NewReader(bytes.NewReader(sqlite3(t, "-csv", "-header"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	cols, rows := crossRows()
	ours, err := csv.NewReader(bytes.NewReader(render(t, output.CSV, output.Options{Header: true}, cols, rows))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(ours) != len(theirs) {
		t.Fatalf("%d records, sqlite3 has %d", len(ours), len(theirs))
	}
	for i := range ours {
		for j := range ours[i] {
			if !sameCell(j, ours[i][j], theirs[i][j], false) {
				t.Errorf("record %d column %d: %q, sqlite3 %q", i, j, ours[i][j], theirs[i][j])
			}
		}
	}
}

func TestSQLite3_json(t *testing.T) {
	t.Parallel()
	theirsRaw := sqlite3(t, "-json")
	cols, rows := crossRows()
	oursRaw := render(t, output.JSON, output.Options{}, cols, rows)
	// Same layout: one object per line, "[{" first, "}]" last.
	ol, tl := bytes.Split(oursRaw, []byte("\n")), bytes.Split(theirsRaw, []byte("\n"))
	if len(ol) != len(tl) {
		t.Fatalf("%d lines, sqlite3 has %d", len(ol), len(tl))
	}
	for i := range ol {
		if len(ol[i]) > 1 && (ol[i][0] != tl[i][0] || ol[i][len(ol[i])-1] != tl[i][len(tl[i])-1]) {
			t.Errorf("line %d layout: %q vs sqlite3 %q", i, ol[i], tl[i])
		}
	}
	decode := func(b []byte) []map[string]any {
		d := json.NewDecoder(bytes.NewReader(b))
		d.UseNumber()
		var v []map[string]any
		if err := d.Decode(&v); err != nil {
			t.Fatalf("%v in %s", err, b)
		}
		return v
	}
	ours, theirs := decode(oursRaw), decode(theirsRaw)
	if len(ours) != len(theirs) {
		t.Fatalf("%d rows, sqlite3 has %d", len(ours), len(theirs))
	}
	for i := range ours {
		for j, c := range cols {
			o, th := fmt.Sprint(ours[i][c.Name]), fmt.Sprint(theirs[i][c.Name])
			if !sameCell(j, o, th, true) {
				t.Errorf("row %d %s: %q, sqlite3 %q", i, c.Name, o, th)
			}
		}
	}
}
