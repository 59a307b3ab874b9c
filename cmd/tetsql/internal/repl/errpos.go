package repl

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

// Where an error lies in its statement. modernc.org/sqlite's errors
// carry a message and a result code but not sqlite3_error_offset, so
// the shell finds the token SQLite names in the message ("near "FORM":
// syntax error", "no such table: temprature", …) in the statement text
// itself: case-insensitively, as a whole word, outside string literals
// and comments, inside a quoted identifier only as its whole name, the
// first occurrence spelt exactly as in the message winning over one in
// another case. A message naming no token gets no caret.

// errorKind is what an error message names: the kind of the token,
// which decides where suggestions come from.
type errorKind int

const (
	kindNone     errorKind = iota
	kindSyntax             // near "…": syntax error, unrecognized token
	kindTable              // no such table
	kindColumn             // no such column
	kindFunction           // no such function
	kindOther              // ambiguous column name, wrong number of arguments, …
)

// tokenMessages are SQLite's messages that name a token of the
// statement, with the kind of the token.
var tokenMessages = []struct {
	re   *regexp.Regexp
	kind errorKind
}{
	{regexp.MustCompile(`^near "(.+)": syntax error$`), kindSyntax},
	{regexp.MustCompile(`^unrecognized token: "(.+)"$`), kindSyntax},
	{regexp.MustCompile(`^no such table: (.+)$`), kindTable},
	{regexp.MustCompile(`^no such column: (.+)$`), kindColumn},
	{regexp.MustCompile(`^no such function: (.+)$`), kindFunction},
	{regexp.MustCompile(`^(?:ambiguous column name|no such window|no such collation sequence|no such module|no such index): (.+)$`), kindOther},
	{regexp.MustCompile(`^(?:wrong number of arguments to function|misuse of aggregate function|misuse of window function|misuse of aggregate:) (.+)\(\)$`), kindOther},
	{regexp.MustCompile(`^too many arguments on (.+)\(\) - max \d+$`), kindOther},
	{regexp.MustCompile(`^cannot join using column (.+) - column not present in both tables$`), kindOther},
}

// errorToken returns the token msg (a cleaned message, see tidy) names
// and its kind; kindNone when it names none.
func errorToken(msg string) (string, errorKind) {
	for _, m := range tokenMessages {
		if sub := m.re.FindStringSubmatch(msg); sub != nil {
			return sub[1], m.kind
		}
	}
	return "", kindNone
}

// findToken returns the byte offset of tok in stmt, or -1. For a
// qualified name (schema.table, alias.column) not found as written, the
// last part is looked for.
func findToken(stmt, tok string) int {
	if off := findWord(stmt, tok); off >= 0 || !strings.Contains(tok, ".") {
		return off
	}
	return findWord(stmt, tok[strings.LastIndexByte(tok, '.')+1:])
}

// findWord finds tok in stmt outside string literals and comments (a
// token starting a string literal, as in unrecognized token: "'x", is
// found at its opening quote), as a whole word where it starts or ends
// with a word character. Inside a quoted identifier ("…", `…`, […]) it
// matches only the whole name, so that the foo of "foo bar" is not
// taken for a column foo.
func findWord(stmt, tok string) int {
	if tok == "" {
		return -1
	}
	code, quoted := scanCode(stmt)
	first := -1
	consider := func(p int, exact bool) bool {
		if exact {
			return true
		}
		if first < 0 {
			first = p
		}
		return false
	}
	for p := 0; p < len(stmt); p++ {
		if end, ok := quoted[p]; ok {
			name := unquoteName(stmt[p-1], stmt[p:end])
			if strings.EqualFold(name, tok) && consider(p, name == tok) {
				return p
			}
		}
		if p+len(tok) > len(stmt) || !code[p] || !strings.EqualFold(stmt[p:p+len(tok)], tok) {
			continue
		}
		end := p + len(tok)
		if idChar(tok[0]) && p > 0 && idChar(stmt[p-1]) || idChar(tok[len(tok)-1]) && end < len(stmt) && idChar(stmt[end]) {
			continue
		}
		if consider(p, stmt[p:end] == tok) {
			return p
		}
	}
	return first
}

// unquoteName returns the name a quoted identifier's text spells,
// given its opening quote: a doubled closing quote stands for one.
func unquoteName(open byte, text string) string {
	switch open {
	case '"':
		return strings.ReplaceAll(text, `""`, `"`)
	case '`':
		return strings.ReplaceAll(text, "``", "`")
	}
	return text
}

// codeBytes marks the bytes of stmt a token may start at: those outside
// comments, string literals and quoted identifiers, and the opening
// quote of a literal or identifier.
func codeBytes(stmt string) []bool {
	code, _ := scanCode(stmt)
	return code
}

// scanCode returns codeBytes and, for each quoted identifier, the
// offset of its text (after the opening quote) mapped to the offset
// of its closing quote.
func scanCode(stmt string) ([]bool, map[int]int) {
	code := make([]bool, len(stmt))
	quoted := map[int]int{}
	// skipQuoted returns the offset just past the closing quote of a
	// literal or identifier whose text starts at i; a doubled closing
	// quote (not in […]) stands for one and does not close it.
	skipQuoted := func(i int, closer byte, doubles bool) (text, next int) {
		for j := i; j < len(stmt); j++ {
			if stmt[j] != closer {
				continue
			}
			if doubles && j+1 < len(stmt) && stmt[j+1] == closer {
				j++
				continue
			}
			return j, j + 1
		}
		return len(stmt), len(stmt)
	}
	for i := 0; i < len(stmt); {
		switch c := stmt[i]; {
		case c == '\'':
			code[i] = true
			_, i = skipQuoted(i+1, '\'', true)
		case c == '"' || c == '`' || c == '[':
			code[i] = true
			closer := map[byte]byte{'"': '"', '`': '`', '[': ']'}[c]
			end, next := skipQuoted(i+1, closer, c != '[')
			quoted[i+1] = end
			i = next
		case strings.HasPrefix(stmt[i:], "--"):
			for i < len(stmt) && stmt[i] != '\n' {
				i++
			}
		case strings.HasPrefix(stmt[i:], "/*"):
			if j := strings.Index(stmt[i+2:], "*/"); j >= 0 {
				i += j + 4
			} else {
				i = len(stmt)
			}
		default:
			code[i] = true
			i++
		}
	}
	return code, quoted
}

// defaultErrorWidth is the width the statement line of an error is cut
// to when the terminal's is unknown (output to a pipe or file).
const defaultErrorWidth = 80

// pointAt renders the line of stmt holding byte offset off and, below
// it, a caret under that byte, both indented by two blanks; the line of
// a statement of several lines is labelled "LINE n: ". A line wider
// than width columns is cut to a window around the caret, "…" marking
// each cut.
func pointAt(stmt string, off, width int) string {
	if off < 0 || off > len(stmt) {
		return ""
	}
	if width <= 0 {
		width = defaultErrorWidth
	}
	ls := strings.LastIndexByte(stmt[:off], '\n') + 1
	le := strings.IndexByte(stmt[off:], '\n')
	if le < 0 {
		le = len(stmt)
	} else {
		le += off
	}
	prefix := "  "
	if strings.Contains(stmt, "\n") {
		prefix = "  LINE " + strconv.Itoa(strings.Count(stmt[:off], "\n")+1) + ": "
	}
	blank := func(s string) string { return strings.NewReplacer("\t", " ", "\r", "").Replace(s) }
	before := []rune(blank(stmt[ls:off]))
	after := []rune(strings.TrimRight(blank(stmt[off:le]), " "))
	avail := max(width-len(prefix)-1, 20)
	w := func(rs []rune) int { return output.TextWidth(string(rs)) }
	if w(before)+w(after) > avail {
		// A third of the window before the caret, the rest after; more
		// before when the line ends sooner.
		if lead := max(avail/3, avail-w(after)); w(before) > lead {
			for w(before)+1 > lead {
				before = before[1:]
			}
			before = append([]rune("…"), before...)
		}
		if w(before)+w(after) > avail {
			for w(before)+w(after)+1 > avail && len(after) > 1 {
				after = after[:len(after)-1]
			}
			after = append(after, '…')
		}
	}
	return prefix + string(before) + string(after) + "\n" +
		strings.Repeat(" ", len(prefix)+w(before)) + "^"
}
