package repl

import "strings"

// buffer collects input, line by line, and cuts it into complete SQL
// statements. A statement is complete at a ';' outside quotes ('…', "…",
// `…`, […]) and comments (-- and /* */), and, inside CREATE TRIGGER,
// only at the ';' after the body's END — the rules of sqlite3_complete.
// Text is scanned once: the lexer state carries over from one Add to the
// next.
type buffer struct {
	text strings.Builder // pending (incomplete) statement text
	lx   lexer
}

// Add appends line (without its newline) and returns the statements it
// completes, trimmed, each ending in ';'. Text after the last ';' stays
// pending.
func (b *buffer) Add(line string) []string {
	return b.add(line + "\n")
}

func (b *buffer) add(src string) []string {
	var out []string
	start := 0
	for i := 0; i < len(src); {
		n, end := b.lx.step(src, i)
		if end {
			b.text.WriteString(src[start : i+n])
			if stmt := strings.TrimSpace(b.text.String()); b.lx.content {
				out = append(out, stmt)
			}
			b.text.Reset()
			b.lx.reset()
			start = i + n
		}
		i += n
	}
	b.text.WriteString(src[start:])
	if b.Empty() {
		// Only blanks and finished comments so far: forget them, so that
		// a dot command may follow.
		b.text.Reset()
	}
	return out
}

// Empty reports whether nothing but blanks and comments is pending.
func (b *buffer) Empty() bool {
	return !b.lx.content && (b.lx.mode == modeNormal || b.lx.mode == modeLineComment)
}

// Flush returns the pending text as a statement (trimmed; "" when it
// holds no SQL) and empties the buffer. Scripts flush at end of input so
// that a last statement without ';' still runs.
func (b *buffer) Flush() string {
	s := strings.TrimSpace(b.text.String())
	if !b.lx.content {
		s = ""
	}
	b.Reset()
	return s
}

// Reset drops the pending text.
func (b *buffer) Reset() {
	b.text.Reset()
	b.lx = lexer{}
}

// splitScript cuts a whole script into statements; rest is the trailing text
// that no ';' completes ("" when only blanks and comments remain).
func splitScript(script string) (stmts []string, rest string) {
	var b buffer
	stmts = b.add(script)
	return stmts, b.Flush()
}

// Lexer modes: where the scanner is between characters.
const (
	modeNormal = iota
	modeQuote
	modeLineComment
	modeBlockComment
)

// Tokens and states of sqlite3_complete's state machine (complete.c).
const (
	tkSemi = iota
	tkWS
	tkOther
	tkExplain
	tkCreate
	tkTemp
	tkTrigger
	tkEnd
)

// trans[state][token] is the next state. States: 0 invalid, 1 start,
// 2 normal, 3 explain, 4 create, 5 trigger, 6 semi (inside a trigger
// body), 7 end. A statement is complete on entering state 1 by tkSemi.
var trans = [8][8]uint8{
	/* 0 invalid */ {1, 0, 2, 3, 4, 2, 2, 2},
	/* 1 start   */ {1, 1, 2, 3, 4, 2, 2, 2},
	/* 2 normal  */ {1, 2, 2, 2, 2, 2, 2, 2},
	/* 3 explain */ {1, 3, 3, 2, 4, 2, 2, 2},
	/* 4 create  */ {1, 4, 2, 2, 2, 4, 5, 2},
	/* 5 trigger */ {6, 5, 5, 5, 5, 5, 5, 5},
	/* 6 semi    */ {6, 6, 5, 5, 5, 5, 5, 7},
	/* 7 end     */ {1, 7, 5, 5, 5, 5, 5, 5},
}

// lexer is the scanner state between characters.
type lexer struct {
	mode    int
	closer  byte  // closing quote in modeQuote
	state   uint8 // sqlite3_complete state
	content bool  // a token other than blanks and comments was seen
}

func (l *lexer) reset() { *l = lexer{} }

// step consumes one token (or one character inside a quote or comment)
// at src[i] and reports its length and whether it ended a statement.
func (l *lexer) step(src string, i int) (n int, end bool) {
	c := src[i]
	switch l.mode {
	case modeQuote:
		if c == l.closer {
			l.mode = modeNormal
		}
		return 1, false
	case modeLineComment:
		if c == '\n' {
			l.mode = modeNormal
		}
		return 1, false
	case modeBlockComment:
		if c == '*' && i+1 < len(src) && src[i+1] == '/' {
			l.mode = modeNormal
			return 2, false
		}
		return 1, false
	}
	switch {
	case c == ';':
		l.state = trans[l.state][tkSemi]
		return 1, l.state == 1
	case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
		l.token(tkWS)
		return 1, false
	case c == '-' && i+1 < len(src) && src[i+1] == '-':
		l.mode = modeLineComment
		l.token(tkWS)
		return 2, false
	case c == '/' && i+1 < len(src) && src[i+1] == '*':
		l.mode = modeBlockComment
		l.token(tkWS)
		return 2, false
	case c == '\'' || c == '"' || c == '`' || c == '[':
		l.mode, l.closer = modeQuote, c
		if c == '[' {
			l.closer = ']'
		}
		l.token(tkOther)
		return 1, false
	case idChar(c):
		j := i + 1
		for j < len(src) && idChar(src[j]) {
			j++
		}
		l.token(keyword(src[i:j]))
		return j - i, false
	}
	l.token(tkOther)
	return 1, false
}

func (l *lexer) token(tk int) {
	l.state = trans[l.state][tk]
	if tk != tkWS {
		l.content = true
	}
}

// idChar reports whether c may be part of an identifier or keyword
// (bytes ≥ 0x80 belong to UTF-8 identifiers).
func idChar(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

var keywords = []struct {
	word string
	tk   int
}{{"EXPLAIN", tkExplain}, {"CREATE", tkCreate}, {"TEMP", tkTemp}, {"TEMPORARY", tkTemp},
	{"TRIGGER", tkTrigger}, {"END", tkEnd}}

func keyword(w string) int {
	for _, k := range keywords {
		if len(w) == len(k.word) && strings.EqualFold(w, k.word) {
			return k.tk
		}
	}
	return tkOther
}
