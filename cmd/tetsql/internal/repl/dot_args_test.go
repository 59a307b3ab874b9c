package repl

import "testing"

// TestResolveBackslashes: the escapes sqlite3 3.40 resolves in .print's
// arguments (each checked against its resolve_backslashes: printf
// '.print a\\tb\n' | sqlite3 :memory: | od -c).
func TestResolveBackslashes(t *testing.T) {
	tests := []struct{ in, want string }{
		{`a\tb`, "a\tb"},
		{`a\nb`, "a\nb"},
		{`\a\b\v\f\r`, "\a\b\v\f\r"},
		{`a\\b`, `a\b`},
		{`c\"d\'e`, `c"d'e`},
		{`\101`, "A"},
		{`\0101`, "\b1"}, // at most three octal digits
		{`\1010`, "A0"},
		{`\7`, "\a"},
		{`\60`, "0"},
		{`\x41`, "x41"}, // no hex escapes in 3.40
		{`\q\N`, "qN"},  // an unknown escape drops its backslash
		{`a\`, `a\`},    // a last backslash stays
		{`a\0b`, "a"},   // NUL ends the text
		{"plain", "plain"},
	}
	for _, tt := range tests {
		if got := resolveBackslashes(tt.in); got != tt.want {
			t.Errorf("resolveBackslashes(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
