package output

import "unicode/utf8"

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string. Beyond what RFC 8259
// requires (", \ and C0 controls), it escapes U+2028 and U+2029 so the
// output is also valid JavaScript, and replaces invalid UTF-8 with \ufffd.
// HTML characters (<, >, &) are left alone.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&15])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendDisplay appends s for a box, table or markdown cell, which must stay
// on one line and not reorder its neighbours: \n, \r and \t print as those
// two-character escapes, other C0 controls and DEL as \xHH, C1 controls,
// U+2028, U+2029 and the bidirectional embedding, override and isolate
// controls as \uHHHH, invalid UTF-8 as U+FFFD, and, when pipe is set
// (markdown), | as \|.
func appendDisplay(dst, s []byte, pipe bool) []byte {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != 0x7f && !(pipe && c == '|') {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '|':
				dst = append(dst, '\\', '|')
			default:
				dst = append(dst, '\\', 'x', hexDigits[c>>4], hexDigits[c&15])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\uFFFD"...)
		case r <= 0x9f || r == 0x2028 || r == 0x2029 || // C1, line/paragraph separators
			r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069: // bidi overrides
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u',
				hexDigits[r>>12], hexDigits[r>>8&15], hexDigits[r>>4&15], hexDigits[r&15])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(dst, s[start:]...)
}

// appendTSV appends s as a TSV field in the "linear TSV" convention
// (PostgreSQL text format, ClickHouse TabSeparated): backslash, tab,
// newline and carriage return print as \\, \t, \n and \r, so every record
// stays on one line and splits on tabs. Nothing else is changed.
func appendTSV(dst, s []byte) []byte {
	start := 0
	for i, c := range s {
		var e byte
		switch c {
		case '\\':
			e = '\\'
		case '\t':
			e = 't'
		case '\n':
			e = 'n'
		case '\r':
			e = 'r'
		default:
			continue
		}
		dst = append(dst, s[start:i]...)
		dst = append(dst, '\\', e)
		start = i + 1
	}
	return append(dst, s[start:]...)
}
