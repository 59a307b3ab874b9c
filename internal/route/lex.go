package route

import (
	"strings"
)

// The tokens of a SQL statement, as far as Rewrite needs to tell them
// apart. Anything it does not know makes a token of kind tOther, which
// makes Rewrite leave the statement alone.

type kind int

const (
	tIdent  kind = iota // bare or quoted identifier, or keyword
	tString             // 'text'
	tNumber             // 12, 1.5e3, 0x1F
	tParam              // ?, ?3, :name, @name, $name
	tPunct              // , ( ) ; . * and operators
	tOther              // a blob literal, or anything unexpected
)

type token struct {
	kind   kind
	text   string // as written
	name   string // identifiers: the name, unquoted; keywords: upper case
	quoted bool   // a quoted identifier is never a keyword
	pos    int    // byte offset of text in the statement
}

// is reports whether t is the bare keyword kw (upper case).
func (t token) is(kw string) bool { return t.kind == tIdent && !t.quoted && t.name == kw }

// punct reports whether t is the punctuation p.
func (t token) punct(p string) bool { return t.kind == tPunct && t.text == p }

// lex splits q into tokens, dropping white space and comments; ok is
// false for text it cannot split (an unterminated quote or comment).
func lex(q string) (toks []token, ok bool) {
	i := 0
	for i < len(q) {
		c := q[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case strings.HasPrefix(q[i:], "--"):
			j := strings.IndexByte(q[i:], '\n')
			if j < 0 {
				return toks, true
			}
			i += j + 1
			continue
		case strings.HasPrefix(q[i:], "/*"):
			j := strings.Index(q[i+2:], "*/")
			if j < 0 {
				return nil, false
			}
			i += j + 4
			continue
		}
		t, n := lexOne(q[i:])
		if n == 0 {
			return nil, false
		}
		t.pos = i
		t.text = q[i : i+n]
		toks = append(toks, t)
		i += n
	}
	return toks, true
}

// lexOne reads the token at the start of s and its length (0: none).
func lexOne(s string) (token, int) {
	c := s[0]
	switch {
	case c == '\'':
		n := quoted(s, '\'')
		return token{kind: tString}, n
	case c == '"' || c == '`' || c == '[':
		end := c
		if c == '[' {
			end = ']'
		}
		n := quoted(s, end)
		if n == 0 {
			return token{}, 0
		}
		name := s[1 : n-1]
		if c != '[' {
			name = strings.ReplaceAll(name, string([]byte{c, c}), string(c))
		}
		return token{kind: tIdent, name: name, quoted: true}, n
	case (c == 'x' || c == 'X') && len(s) > 1 && s[1] == '\'':
		n := quoted(s[1:], '\'')
		if n == 0 {
			return token{}, 0
		}
		return token{kind: tOther}, n + 1
	case isIdentStart(c):
		n := 1
		for n < len(s) && isIdentPart(s[n]) {
			n++
		}
		return token{kind: tIdent, name: strings.ToUpper(s[:n])}, n
	case c >= '0' && c <= '9' || c == '.' && len(s) > 1 && s[1] >= '0' && s[1] <= '9':
		n := 1
		for n < len(s) && (isIdentPart(s[n]) || s[n] == '.' ||
			(s[n] == '+' || s[n] == '-') && (s[n-1] == 'e' || s[n-1] == 'E')) {
			n++
		}
		return token{kind: tNumber}, n
	case c == '?':
		n := 1
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		return token{kind: tParam}, n
	case c == ':' || c == '@' || c == '$':
		n := 1
		for n < len(s) && isIdentPart(s[n]) {
			n++
		}
		if n == 1 {
			return token{}, 0
		}
		return token{kind: tParam}, n
	}
	for _, op := range []string{"<=", ">=", "<>", "!=", "==", "||", "<<", ">>"} {
		if strings.HasPrefix(s, op) {
			return token{kind: tPunct}, 2
		}
	}
	if strings.IndexByte(",();.*=<>+-/%&|~", c) >= 0 {
		return token{kind: tPunct}, 1
	}
	return token{kind: tOther}, 1
}

// quoted returns the length of the quoted text at the start of s, up to
// and including the closing quote (a doubled quote is part of the text),
// or 0 when it is not closed.
func quoted(s string, end byte) int {
	for i := 1; i < len(s); i++ {
		if s[i] == end {
			if end != ']' && i+1 < len(s) && s[i+1] == end {
				i++
				continue
			}
			return i + 1
		}
	}
	return 0
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' || c == '$' }
