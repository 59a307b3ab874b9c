package repl

import (
	"reflect"
	"testing"
)

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		d    int
	}{
		{"", "", 0},
		{"abc", "abc", 0},
		{"", "abc", 3},
		{"temprature", "temperature", 1}, // insertion
		{"valeu", "value", 1},            // swap of neighbours
		{"tabels", "tables", 1},
		{"avgg", "avg", 1},  // deletion
		{"tine", "time", 1}, // substitution
		{"ca", "abc", 3},    // optimal string alignment: no edit of a swapped pair
		{"pressur", "pressure_agg", 5},
		{"kitten", "sitting", 3},
	}
	for _, tt := range tests {
		if d := distance([]rune(tt.a), []rune(tt.b)); d != tt.d {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, d, tt.d)
		}
		if d := distance([]rune(tt.b), []rune(tt.a)); d != tt.d {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.b, tt.a, d, tt.d)
		}
	}
}

func TestCloseNames(t *testing.T) {
	names := func(ns ...string) []candidate {
		var out []candidate
		for _, n := range ns {
			out = append(out, candidate{key: n, show: n})
		}
		return out
	}
	tests := []struct {
		word  string
		cands []candidate
		want  []string
	}{
		{"temprature", names("pressure", "temperature", "temperature_agg"), []string{"temperature"}},
		{"TEMPRATURE", names("temperature"), []string{"temperature"}}, // case-insensitive
		{"tme", names("time", "tmp", "station"), []string{"time", "tmp"}},
		{"tm", names("time"), nil},   // 1 edit is more than a third of 2 letters
		{"x", names("y", "xy"), nil}, // nothing is close to one letter
		{"valu", names("value", "valx", "val"), []string{"value", "valx", "val"}},
		{"abcdef", names("abcxyz", "abcdxy", "abcdez"), []string{"abcdez", "abcdxy"}},                                             // nearest first; 3 edits is too far
		{"abcdefghi", names("abcdefgh1", "abcdefg12", "abcdefgh2", "abcdefgh3"), []string{"abcdefgh1", "abcdefgh2", "abcdefgh3"}}, // at most 3
		{"time", names("time", "Time"), nil},                                                                                      // the same name is no suggestion
		{"tme", names("time", "TIME"), []string{"time"}},                                                                          // each name once
		{"", names("a"), nil},
	}
	for _, tt := range tests {
		if got := closeNames(tt.word, tt.cands); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("closeNames(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	tests := map[string][]string{
		"":                                  nil,
		" — did you mean a?":                {"a"},
		" — did you mean a or b?":           {"a", "b"},
		" — did you mean a, b or c?":        {"a", "b", "c"},
		" — did you mean demo.temperature?": {"demo.temperature"},
	}
	for want, names := range tests {
		if got := didYouMean(names); got != want {
			t.Errorf("didYouMean(%q) = %q, want %q", names, got, want)
		}
	}
}

func TestTableSuggestions(t *testing.T) {
	// Search order, as the catalog query returns it: temp, main, attached.
	tables := [][]string{
		{"main", "temps"}, {"demo", "temperature"}, {"demo", "pressure"},
		{"other", "temperature"}, {"other", "pressure_x"}, {"my-glob", "t2m"},
	}
	tests := []struct {
		tok  string
		want []string
	}{
		{"temprature", []string{"temperature", "other.temperature"}}, // bare where a bare name finds it
		{"pressure_xx", []string{"pressure_x"}},                      // the only one: found by its bare name
		{"demo.temprature", []string{"demo.temperature"}},
		{"dmeo.temperature", []string{"demo.temperature"}},
		{"othr.pressure_x", []string{"other.pressure_x"}},
		{"t2n", []string{"t2m"}},
		{"my-glob.t2n", []string{`"my-glob".t2m`}},
		{"nothing_like_it", nil},
	}
	for _, tt := range tests {
		if got := tableSuggestions(tt.tok, tables); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("tableSuggestions(%q) = %q, want %q", tt.tok, got, tt.want)
		}
	}
	if got := tableSuggestions("temprature", [][]string{{"bad row"}}); got != nil {
		t.Errorf("malformed catalog: %q, want none", got)
	}
}

func TestColumnSuggestions(t *testing.T) {
	cols := [][]string{
		{"demo", "temperature", "value"}, {"demo", "temperature", "time"},
		{"demo", "pressure", "valeur"}, {"demo", "pressure", "level"},
		{"demo", "odd", "my value"},
	}
	tests := []struct {
		tok, q string
		want   []string
	}{
		{"valeu", "SELECT valeu FROM temperature", []string{"value"}}, // the named table's columns only
		{"valeu", "SELECT valeu FROM pressure", []string{"valeur"}},
		{"valeu", "SELECT valeu FROM somewhere_else", []string{"value", "valeur"}}, // no table named: all
		{"valeu", `SELECT valeu FROM "temperature"`, []string{"value"}},
		{"valeu", "SELECT valeu FROM x -- temperature", []string{"value", "valeur"}}, // a comment names nothing
		{"a.valeu", "SELECT a.valeu FROM temperature AS a", []string{"a.value"}},
		{"my valeu", `SELECT "my valeu" FROM odd`, []string{`"my value"`}},
		{"lvl", "SELECT lvl FROM pressure", nil},
	}
	for _, tt := range tests {
		if got := columnSuggestions(tt.tok, tt.q, cols); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("columnSuggestions(%q, %q) = %q, want %q", tt.tok, tt.q, got, tt.want)
		}
	}
}

func TestUnknownDot(t *testing.T) {
	tests := map[string]string{
		"tabels":  `unknown command ".tabels" — did you mean .tables?`,
		"moed":    `unknown command ".moed" — did you mean .mode?`,
		"hedaers": `unknown command ".hedaers" — did you mean .headers?`,
		"exti":    `unknown command ".exti" — did you mean .exit?`, // an alias
		"xyzzy":   `unknown command ".xyzzy"; enter ".help" for the list`,
	}
	for name, want := range tests {
		if got := unknownDot(name).Error(); got != want {
			t.Errorf("unknownDot(%q) = %q, want %q", name, got, want)
		}
	}
}
