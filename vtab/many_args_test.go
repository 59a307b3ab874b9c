package vtab

import (
	"strings"
	"testing"
)

func TestParseManyArgs(t *testing.T) {
	cases := []struct {
		args    []string
		pattern string
		dataset string
		skip    bool
		agg     bool
		err     string
	}{
		{args: []string{"'d/*.tet'", "'t2m'"}, pattern: "d/*.tet", dataset: "t2m"},
		{args: []string{"'d/*.tet'", "t2m", "'on_error=skip'"}, pattern: "d/*.tet", dataset: "t2m", skip: true},
		{args: []string{"'d/*.tet'", "'t2m'", "'kind=agg'", "' ON_ERROR = Skip '"}, pattern: "d/*.tet", dataset: "t2m", skip: true, agg: true},
		{args: []string{"'d/*.tet'", "'t2m'", "'on_error=fail'", "'kind=cells'"}, pattern: "d/*.tet", dataset: "t2m"},
		{args: []string{"'it''s/*.tet'", "'a b'"}, pattern: "it's/*.tet", dataset: "a b"},
		{args: []string{"'d/*.tet'"}, err: "need a glob and a dataset"},
		{args: nil, err: "need a glob and a dataset"},
		{args: []string{"''", "'t2m'"}, err: "empty glob"},
		{args: []string{"'d/*.tet'", "'t2m'", "'on_error=ignore'"}, err: "unknown option"},
		{args: []string{"'d/*.tet'", "'t2m'", "'kind=meta'"}, err: "unknown option"},
		{args: []string{"'d/*.tet'", "'t2m'", "'session=1'"}, err: "unknown option"},
	}
	for _, c := range cases {
		a, err := parseManyArgs(append([]string{"tet_many", "main", "m"}, c.args...))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %v, want an error with %q", c.args, err, c.err)
			}
			continue
		}
		if err != nil || a.pattern != c.pattern || a.dataset != c.dataset || a.skip != c.skip || a.agg != c.agg {
			t.Errorf("%q: %+v %v", c.args, a, err)
		}
	}
}

// FuzzManyArgs: any argument list gives a table's arguments or an error,
// never a panic, and a pattern and dataset when it succeeds.
func FuzzManyArgs(f *testing.F) {
	f.Add("'d/**/*.tet'\x00't2m'\x00'on_error=skip'")
	f.Add("x\x00y\x00kind=agg\x00kind=cells")
	f.Add("'\x00'")
	f.Fuzz(func(t *testing.T, s string) {
		a, err := parseManyArgs(append([]string{"tet_many", "main", "m"}, strings.Split(s, "\x00")...))
		if err == nil && a.pattern == "" {
			t.Fatalf("%q: no error and no pattern", s)
		}
	})
}

func TestParseManyIdx(t *testing.T) {
	for _, s := range []string{"", "d0=", "d0=,v>|0:2,3:72", "|"} {
		if _, _, err := parseManyIdx(s); (err == nil) != strings.Contains(s, "|") {
			t.Errorf("%q: %v", s, err)
		}
	}
	inner, terms, err := parseManyIdx("d0=,v>|0:2,3:72")
	if err != nil || inner != "d0=,v>" || len(terms) != 2 || terms[1].col != 3 || terms[1].op != 72 {
		t.Errorf("got %q %v %v", inner, terms, err)
	}
	for _, bad := range []string{"|x", "|0:", "|:1", "|0:1,"} {
		if _, _, err := parseManyIdx(bad); err == nil && bad != "|0:1," {
			t.Errorf("%q: no error", bad)
		}
	}
}
