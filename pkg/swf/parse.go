package swf

import (
	"math"
	"strconv"
)

// isSpace reports whether c separates fields. '\r' counts, so CRLF lines parse.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

// nextToken returns the token starting at or after i and the index after it.
func nextToken(line []byte, i int) (start, end int) {
	for i < len(line) && isSpace(line[i]) {
		i++
	}
	start = i
	for i < len(line) && !isSpace(line[i]) {
		i++
	}
	return start, i
}

// nextTokenString is nextToken over a string.
func nextTokenString(line string, i int) (start, end int) {
	for i < len(line) && isSpace(line[i]) {
		i++
	}
	start = i
	for i < len(line) && !isSpace(line[i]) {
		i++
	}
	return start, i
}

var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseNumber parses a decimal number without allocating in the common cases
// (integers and short decimals). integral reports whether the value is a whole number.
func parseNumber(b []byte) (v float64, integral bool, ok bool) {
	i, neg := 0, false
	if i < len(b) && (b[i] == '-' || b[i] == '+') {
		neg = b[i] == '-'
		i++
	}
	var mant uint64
	digits, fracDigits, fracNonZero := 0, 0, false
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		if mant > 1e17 {
			return parseSlow(b)
		}
		mant = mant*10 + uint64(b[i]-'0')
		digits++
	}
	if i < len(b) && b[i] == '.' {
		i++
		for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			if mant > 1e15 || fracDigits >= 22 {
				return parseSlow(b)
			}
			mant = mant*10 + uint64(b[i]-'0')
			fracDigits++
			if b[i] != '0' {
				fracNonZero = true
			}
			digits++
		}
	}
	if i != len(b) {
		return parseSlow(b)
	}
	if digits == 0 {
		return 0, false, false
	}
	v = float64(mant)
	if fracDigits > 0 {
		v /= pow10[fracDigits]
	}
	if neg {
		v = -v
	}
	return v, !fracNonZero, true
}

// parseSlow handles exponents, very long numbers and rejects garbage.
func parseSlow(b []byte) (float64, bool, bool) {
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false, false
	}
	return v, v == math.Trunc(v), true
}

// validExtra reports whether tok has the form key=value with a non-empty key of
// letters, digits, '_', '-' or '.' starting with a letter or '_'.
func validExtra(tok []byte) bool {
	eq := -1
	for i, c := range tok {
		if c == '=' {
			eq = i
			break
		}
	}
	if eq < 1 {
		return false
	}
	for i, c := range tok[:eq] {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
		if i == 0 && !letter {
			return false
		}
		if !letter && !(c >= '0' && c <= '9') && c != '-' && c != '.' {
			return false
		}
	}
	return true
}
