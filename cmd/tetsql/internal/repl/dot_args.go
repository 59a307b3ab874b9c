package repl

import (
	"fmt"
	"strings"
)

// The words of a dot command line, split as sqlite3 3.40 splits them:
// blanks separate words; '…' quotes a word as it is; "…" quotes a word
// whose backslash escapes are resolved (\t, \n, \", \\, octal \101, …),
// as sqlite3's resolve_backslashes does. sqlite3 resolves the escapes of
// unquoted words too, for every command; this shell does so only where
// a command asks for it (.print), so that .nullvalue \N and paths keep
// their backslashes.

// dotWord is one word of a dot command line.
type dotWord struct {
	text string
	bare bool // not quoted: its escapes are not resolved yet
}

// splitDot splits a dot command line into its words; the first is the
// command's name (with the dot dropped).
func splitDot(line string) ([]dotWord, error) {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, ".") {
		return nil, fmt.Errorf("not a dot command: %q", line)
	}
	var words []dotWord
	for i := 1; i < len(line); {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			i++
			continue
		case c == '\'' || c == '"':
			j := i + 1
			for ; j < len(line) && line[j] != c; j++ {
				if c == '"' && line[j] == '\\' && j+1 < len(line) {
					j++ // \" does not end the word
				}
			}
			if j >= len(line) {
				return nil, fmt.Errorf("unterminated %c in %q", c, line)
			}
			text := line[i+1 : j]
			if c == '"' {
				text = resolveBackslashes(text)
			}
			words = append(words, dotWord{text: text})
			i = j + 1
		default:
			j := i
			for j < len(line) && line[j] != ' ' && line[j] != '\t' {
				j++
			}
			words = append(words, dotWord{text: line[i:j], bare: true})
			i = j
		}
	}
	if len(words) == 0 || strings.HasPrefix(line, ". ") || strings.HasPrefix(line, ".\t") {
		return nil, fmt.Errorf("missing command name after '.'; enter \".help\" for the list")
	}
	return words, nil
}

// resolveBackslashes is sqlite3 3.40's resolve_backslashes: \a \b \t \n
// \v \f \r \" \' \\ stand for their characters, \ and one to three
// octal digits for that byte, and a backslash before any other
// character is dropped (\q is q); a last lone backslash stays. A NUL
// byte ends the text, as it ends sqlite3's C string. There is no \x:
// sqlite3 3.40 reads \x41 as x41.
func resolveBackslashes(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			i++
			c = s[i]
			switch c {
			case 'a':
				c = '\a'
			case 'b':
				c = '\b'
			case 't':
				c = '\t'
			case 'n':
				c = '\n'
			case 'v':
				c = '\v'
			case 'f':
				c = '\f'
			case 'r':
				c = '\r'
			case '0', '1', '2', '3', '4', '5', '6', '7':
				c -= '0'
				for k := 0; k < 2 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7'; k++ {
					i++
					c = c<<3 + s[i] - '0'
				}
			}
		}
		if c == 0 {
			break
		}
		b = append(b, c)
	}
	return string(b)
}
