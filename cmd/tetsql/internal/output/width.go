package output

import (
	"unicode"
	"unicode/utf8"
)

// runeWidth returns the number of terminal columns r occupies: 0 for
// controls, combining marks (Mn, Me), format characters (Cf, except the
// soft hyphen) and Hangul medial and final jamo; 2 for East Asian Wide and
// Fullwidth characters (UAX #11, table below); 1 otherwise. Ambiguous-width
// characters count as 1, as in a Western locale.
func runeWidth(r rune) int {
	switch {
	case r < 0x20 || r >= 0x7f && r < 0xa0:
		return 0
	case r < 0x300:
		return 1
	case r >= 0x1160 && r <= 0x11ff,
		unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		return 0
	}
	lo, hi := 0, len(wideRanges)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch {
		case r < wideRanges[m][0]:
			hi = m
		case r > wideRanges[m][1]:
			lo = m + 1
		default:
			return 2
		}
	}
	return 1
}

// displayWidth returns the terminal width of the UTF-8 text s; an invalid
// byte counts as one column (it is shown as U+FFFD).
func displayWidth(s []byte) int {
	n := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != 0x7f {
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		n += runeWidth(r)
		i += size
	}
	return n
}

// ellipsis ends a cell cut by Options.MaxWidth.
const ellipsis = "…"

// appendTruncated appends s, cut to at most limit columns with a trailing
// "…" if it is wider, and returns the width appended.
func appendTruncated(dst, s []byte, limit int) ([]byte, int) {
	w := displayWidth(s)
	if limit <= 0 || w <= limit {
		return append(dst, s...), w
	}
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRune(s[i:])
		rw := runeWidth(r)
		if n+rw > limit-1 {
			break
		}
		dst = append(dst, s[i:i+size]...)
		n += rw
		i += size
	}
	return append(dst, ellipsis...), n + 1
}

// wideRanges lists the East Asian Wide (W) and Fullwidth (F) code points of
// Unicode 14 (EastAsianWidth.txt) plus planes 2 and 3, as sorted inclusive
// ranges; unassigned gaps inside wide blocks are folded in.
var wideRanges = [...][2]rune{
	{0x1100, 0x115F}, {0x231A, 0x231B}, {0x2329, 0x232A}, {0x23E9, 0x23EC},
	{0x23F0, 0x23F0}, {0x23F3, 0x23F3}, {0x25FD, 0x25FE}, {0x2614, 0x2615},
	{0x2648, 0x2653}, {0x267F, 0x267F}, {0x2693, 0x2693}, {0x26A1, 0x26A1},
	{0x26AA, 0x26AB}, {0x26BD, 0x26BE}, {0x26C4, 0x26C5}, {0x26CE, 0x26CE},
	{0x26D4, 0x26D4}, {0x26EA, 0x26EA}, {0x26F2, 0x26F3}, {0x26F5, 0x26F5},
	{0x26FA, 0x26FA}, {0x26FD, 0x26FD}, {0x2705, 0x2705}, {0x270A, 0x270B},
	{0x2728, 0x2728}, {0x274C, 0x274C}, {0x274E, 0x274E}, {0x2753, 0x2755},
	{0x2757, 0x2757}, {0x2795, 0x2797}, {0x27B0, 0x27B0}, {0x27BF, 0x27BF},
	{0x2B1B, 0x2B1C}, {0x2B50, 0x2B50}, {0x2B55, 0x2B55}, {0x2E80, 0x303E},
	{0x3041, 0x3247}, {0x3250, 0x4DBF}, {0x4E00, 0xA4C6}, {0xA960, 0xA97C},
	{0xAC00, 0xD7A3}, {0xF900, 0xFAD9}, {0xFE10, 0xFE19}, {0xFE30, 0xFE6B},
	{0xFF01, 0xFF60}, {0xFFE0, 0xFFE6}, {0x16FE0, 0x1B2FB}, {0x1F004, 0x1F004},
	{0x1F0CF, 0x1F0CF}, {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A},
	{0x1F200, 0x1F320}, {0x1F32D, 0x1F335}, {0x1F337, 0x1F37C},
	{0x1F37E, 0x1F393}, {0x1F3A0, 0x1F3CA}, {0x1F3CF, 0x1F3D3},
	{0x1F3E0, 0x1F3F0}, {0x1F3F4, 0x1F3F4}, {0x1F3F8, 0x1F43E},
	{0x1F440, 0x1F440}, {0x1F442, 0x1F4FC}, {0x1F4FF, 0x1F53D},
	{0x1F54B, 0x1F54E}, {0x1F550, 0x1F567}, {0x1F57A, 0x1F57A},
	{0x1F595, 0x1F596}, {0x1F5A4, 0x1F5A4}, {0x1F5FB, 0x1F64F},
	{0x1F680, 0x1F6C5}, {0x1F6CC, 0x1F6CC}, {0x1F6D0, 0x1F6D2},
	{0x1F6D5, 0x1F6DF}, {0x1F6EB, 0x1F6EC}, {0x1F6F4, 0x1F6FC},
	{0x1F7E0, 0x1F7F0}, {0x1F90C, 0x1F93A}, {0x1F93C, 0x1F945},
	{0x1F947, 0x1F9FF}, {0x1FA70, 0x1FAF6}, {0x20000, 0x3FFFD},
}
