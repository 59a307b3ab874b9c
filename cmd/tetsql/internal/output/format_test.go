package output_test

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

func TestFormatFloat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{0.1, "0.1"},
		{3, "3.0"},
		{-3, "-3.0"},
		{1.0 / 3, "0.3333333333333333"},
		{1e300, "1.0e+300"},
		{1e-7, "1.0e-07"},
		{1.5e-7, "1.5e-07"},
		{0.0001, "0.0001"},
		{0.00012, "0.00012"},
		{123.456, "123.456"},
		{1e14, "100000000000000.0"},
		{123456789012345.6, "123456789012345.6"},
		{1e15, "1.0e+15"},
		{1.2345678901234568e17, "1.2345678901234568e+17"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{5e-324, "5.0e-324"},
		{math.Inf(1), "Inf"},
		{math.Inf(-1), "-Inf"},
		{math.NaN(), "NaN"},
	}
	for _, tt := range tests {
		if got := output.FormatFloat(tt.in); got != tt.want {
			t.Errorf("FormatFloat(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := output.FormatFloat32(0.1); got != "0.1" {
		t.Errorf("FormatFloat32(0.1) = %q", got)
	}
}

// TestFormatFloat_roundTrip checks that every printed float parses back to
// the same bits and is no longer than strconv's shortest form needs.
func TestFormatFloat_roundTrip(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		for _, v := range []float64{f, math.Round(f*1e3) / 1e3, float64(r.IntN(1 << 20)), r.Float64()} {
			if math.IsInf(v, 0) {
				continue
			}
			s := output.FormatFloat(v)
			got, err := strconv.ParseFloat(s, 64)
			if err != nil || math.Float64bits(got) != math.Float64bits(v) {
				t.Fatalf("FormatFloat(%v) = %q does not round-trip (%v, %v)", v, s, got, err)
			}
			if !strings.Contains(s, ".") {
				t.Fatalf("FormatFloat(%v) = %q has no decimal point", v, s)
			}
			short := strconv.FormatFloat(v, 'e', -1, 64)
			if n, m := sigDigits(s), sigDigits(short); n > max(m, 1) {
				t.Fatalf("FormatFloat(%v) = %q has %d significant digits, shortest has %d", v, s, n, m)
			}
		}
	}
}

// sigDigits counts the significant digits of a decimal float string.
func sigDigits(s string) int {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		s = s[:i]
	}
	s = strings.Trim(strings.NewReplacer("-", "", ".", "").Replace(s), "0")
	return len(s)
}

func TestDisplayWidth(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"café", 4},
		{"cafe\u0301", 4}, // combining acute
		{"中文字", 6},
		{"ｆｕｌｌ", 8}, // fullwidth
		{"한국어", 6},
		{"🙂", 2},
		{"a\u200bb", 2}, // zero width space
		{"\xff", 1},
	}
	for _, tt := range tests {
		if got := output.DisplayWidth(tt.in); got != tt.want {
			t.Errorf("DisplayWidth(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestTruncate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in    string
		limit int
		want  string
	}{
		{"abcdef", 6, "abcdef"},
		{"abcdefg", 6, "abcde…"},
		{"中文字中文字", 5, "中文…"},
		{"中文字中文字", 6, "中文…"},
		{"abc", 1, "…"},
	}
	for _, tt := range tests {
		got := output.Truncate(tt.in, tt.limit)
		if got != tt.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tt.in, tt.limit, got, tt.want)
		}
		if w := output.DisplayWidth(got); w > tt.limit {
			t.Errorf("Truncate(%q, %d) is %d wide", tt.in, tt.limit, w)
		}
	}
}

// TestJSON_strings checks that json and jsonl output is valid JSON and
// decodes back to every string, including controls, separators and
// invalid UTF-8 (which becomes U+FFFD).
func TestJSON_strings(t *testing.T) {
	t.Parallel()
	var in []string
	for c := range 0x80 {
		in = append(in, "<"+string(rune(c))+">")
	}
	in = append(in, "\u2028\u2029", "日本\u0301", "bad\xffutf8", `"\`, "")
	cols := []output.Column{{Name: "s\n\"k\""}}
	rows := make([][]any, len(in))
	for i, s := range in {
		rows[i] = []any{s}
	}
	out := render(t, output.JSON, output.Options{}, cols, rows)
	if bytes.Contains(out, []byte("\u2028")) {
		t.Error("raw U+2028 in JSON output")
	}
	var got []map[string]string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, out)
	}
	for i, s := range in {
		if want := strings.ToValidUTF8(s, "\uFFFD"); got[i][cols[0].Name] != want {
			t.Errorf("row %d: got %q, want %q", i, got[i][cols[0].Name], want)
		}
	}
	lines := bytes.Split(bytes.TrimSuffix(render(t, output.JSONL, output.Options{}, cols, rows), []byte("\n")), []byte("\n"))
	if len(lines) != len(in) {
		t.Fatalf("jsonl: %d lines for %d rows", len(lines), len(in))
	}
	for _, l := range lines {
		if !json.Valid(l) {
			t.Errorf("jsonl line is not valid JSON: %s", l)
		}
	}
}

func TestCSV_singleColumn(t *testing.T) {
	t.Parallel()
	cols := []output.Column{{Name: "s"}}
	rows := [][]any{{nil}, {""}, {"x"}, {[]byte{}}}
	got := string(render(t, output.CSV, output.Options{Header: true}, cols, rows))
	if want := "s\n\"\"\n\"\"\nx\n\"\"\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	got = string(render(t, output.CSV, output.Options{Null: "NULL"}, cols, rows))
	if want := "NULL\n\"\"\nx\n\"\"\n"; got != want {
		t.Errorf("with Null: got %q, want %q", got, want)
	}
}
