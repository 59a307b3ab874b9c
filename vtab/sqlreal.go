package vtab

import (
	"errors"
	"strconv"
	"strings"
)

// sqliteReal is the REAL that SQLite's numeric affinity makes of s, a
// text that parseNumeric accepted as a number but not as an int64. It
// follows sqlite3AtoF: the decimal digits are gathered into a 64-bit
// mantissa m until m reaches (2^64-10)/10, further digits only count
// towards the exponent (integer part) or are dropped (fraction), the
// exponent saturates at 10000, and m·10^e is then rounded to the nearest
// double (SQLite's sqlite3Fp10Convert2 rounds correctly; a test checks
// this function against SQLite itself).
func sqliteReal(s string) float64 {
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	s = strings.Trim(s, " \t\n\v\f\r")
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	const limit = (1<<64 - 1 - 9) / 10
	var m uint64
	d := 0
	i := 0
	full := false
	for ; i < len(s) && isDigit(s[i]); i++ {
		if full {
			d++
			continue
		}
		m = m*10 + uint64(s[i]-'0')
		full = m >= limit
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && isDigit(s[i]); i++ {
			if m < limit {
				m = m*10 + uint64(s[i]-'0')
				d--
			}
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		sign := 1
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			if s[i] == '-' {
				sign = -1
			}
			i++
		}
		e := 0
		for ; i < len(s) && isDigit(s[i]); i++ {
			if e < 10000 {
				e = e*10 + int(s[i]-'0')
			} else {
				e = 10000
			}
		}
		d += sign * e
	}
	var f float64
	if m != 0 {
		var err error
		f, err = strconv.ParseFloat(strconv.FormatUint(m, 10)+"e"+strconv.Itoa(d), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			f = 0 // unreachable: the text is well formed
		}
	}
	if neg {
		f = -f
	}
	return f
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }
