package vtab

// patternCompare's results, as SQLite's patternCompare returns them.
// patNoWildcard ("no match, and no later start can match either") stops
// the search of a '*' or '%' early; it is what keeps the matching
// polynomial.
const (
	patMatch = iota
	patNoMatch
	patNoWildcard
)

// patternCompare is SQLite's patternCompare (func.c) for the built-in
// like() (like: '%', '_', ASCII letters equal regardless of case, no
// escape character: the two-argument form) and glob() ('*', '?',
// "[...]" sets with ranges and a leading '^' for negation, case
// sensitive). It is a transcription, byte for byte, because the answer
// must be SQLite's also on text that is not valid UTF-8 (a path may hold
// any bytes) and on malformed patterns (an unterminated '[' matches
// nothing). pat and str end at their first NUL (see cString); reading
// past the end yields 0 as the C string's terminator does.
func patternCompare(pat, str string, like bool) int {
	var matchOne, matchAll, matchOther uint32 = '?', '*', '['
	if like {
		matchOne, matchAll, matchOther = '_', '%', 0
	}
	p, s := 0, 0
	for {
		c := utf8Read(pat, &p)
		if c == 0 {
			break
		}
		if c == matchAll {
			// Skip further '*' and '?' in the pattern, each '?' consuming
			// one character of the string.
			for {
				c = utf8Read(pat, &p)
				if c != matchAll && c != matchOne {
					break
				}
				if c == matchOne && utf8Read(str, &s) == 0 {
					return patNoWildcard
				}
			}
			if c == 0 {
				return patMatch // a trailing '*' matches the rest
			}
			if c == matchOther {
				// "[...]" right after '*': try every start (slow, rare).
				for s < len(str) {
					if r := patternCompare(pat[p-1:], str[s:], like); r != patNoMatch {
						return r
					}
					s = skipUTF8(str, s)
				}
				return patNoWildcard
			}
			// Find each occurrence of c in the string and match the rest
			// of the pattern from just after it.
			if c < 0x80 {
				// strcspn in C: ASCII bytes always start a character.
				lo, up := byte(c), byte(c)
				if like {
					lo, up = foldLower(lo), foldUpper(lo)
				}
				for ; s < len(str); s++ {
					if str[s] != lo && str[s] != up {
						continue
					}
					if r := patternCompare(pat[p:], str[s+1:], like); r != patNoMatch {
						return r
					}
				}
			} else {
				for {
					c2 := utf8Read(str, &s)
					if c2 == 0 {
						break
					}
					if c2 != c {
						continue
					}
					if r := patternCompare(pat[p:], str[s:], like); r != patNoMatch {
						return r
					}
				}
			}
			return patNoWildcard
		}
		if c == matchOther { // '[' of GLOB (LIKE has no matchOther here)
			if !globSet(pat, &p, str, &s) {
				return patNoMatch
			}
			continue
		}
		c2 := utf8Read(str, &s)
		if c == c2 {
			continue
		}
		if like && c < 0x80 && c2 < 0x80 && foldLower(byte(c)) == foldLower(byte(c2)) {
			continue
		}
		if c == matchOne && c2 != 0 {
			continue
		}
		return patNoMatch
	}
	if s >= len(str) {
		return patMatch
	}
	return patNoMatch
}

// globSet matches the set "[...]" whose '[' has just been read from pat
// at *p against the next character of str, advancing both. It is false
// when the character is not in the set, the string has ended, or the set
// is not closed.
func globSet(pat string, p *int, str string, s *int) bool {
	c := utf8Read(str, s)
	if c == 0 {
		return false
	}
	var prior uint32
	seen, invert := false, false
	c2 := utf8Read(pat, p)
	if c2 == '^' {
		invert = true
		c2 = utf8Read(pat, p)
	}
	if c2 == ']' { // a ']' first is a member, not the end
		if c == ']' {
			seen = true
		}
		c2 = utf8Read(pat, p)
	}
	for c2 != 0 && c2 != ']' {
		if c2 == '-' && byteAt(pat, *p) != ']' && byteAt(pat, *p) != 0 && prior > 0 {
			c2 = utf8Read(pat, p)
			if c >= prior && c <= c2 {
				seen = true
			}
			prior = 0
		} else {
			if c == c2 {
				seen = true
			}
			prior = c2
		}
		c2 = utf8Read(pat, p)
	}
	return c2 != 0 && seen != invert
}

// utf8Trans1 is SQLite's sqlite3Utf8Trans1: the payload bits of a lead
// byte 0xc0..0xff.
var utf8Trans1 = [64]byte{
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
	0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
	0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x00, 0x01, 0x02, 0x03, 0x00, 0x01, 0x00, 0x00,
}

// utf8Read is SQLite's sqlite3Utf8Read: the character at z[*i], 0 at
// the end. Unlike Go's decoder it takes a lead byte 0x80..0xbf as that
// byte's value, lets a lead byte absorb any number of continuation bytes
// (in 32-bit arithmetic), and turns only overlong ASCII and surrogates
// into U+FFFD; matching must see the same characters SQLite sees.
func utf8Read(z string, i *int) uint32 {
	if *i >= len(z) {
		return 0
	}
	c := uint32(z[*i])
	*i++
	if c >= 0xc0 {
		c = uint32(utf8Trans1[c-0xc0])
		for *i < len(z) && z[*i]&0xc0 == 0x80 {
			c = c<<6 + uint32(z[*i]&0x3f)
			*i++
		}
		if c < 0x80 || c&0xfffff800 == 0xd800 {
			c = 0xfffd
		}
	}
	return c
}

// skipUTF8 is SQLite's SQLITE_SKIP_UTF8: past the character at z[i].
func skipUTF8(z string, i int) int {
	if z[i] >= 0xc0 {
		i++
		for i < len(z) && z[i]&0xc0 == 0x80 {
			i++
		}
		return i
	}
	return i + 1
}

func byteAt(z string, i int) byte {
	if i < len(z) {
		return z[i]
	}
	return 0
}

func foldLower(b byte) byte {
	if b >= 'A' && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

func foldUpper(b byte) byte {
	if b >= 'a' && b <= 'z' {
		return b - ('a' - 'A')
	}
	return b
}
