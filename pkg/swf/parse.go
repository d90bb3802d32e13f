package swf

import (
	"errors"
	"fmt"
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

// number is the outcome of parsing a field.
type number int

const (
	numOK       number = iota
	numBad             // not a decimal number
	numFraction        // a number, but not a whole one where one is needed
	numRange           // a whole number beyond int64, or a time beyond MaxTime
)

// maxExact is the largest magnitude a float64 holds exactly as an integer:
// an integer written with an exponent ("1e3") must lie within it.
const maxExact = 1 << 53

// isDecimal reports whether b holds only the characters of a decimal number
// (digits, sign, point, exponent): no hex ("0x1p4"), "Inf", "NaN" or "_",
// which strconv.ParseFloat would accept.
func isDecimal(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E') {
			return false
		}
	}
	return true
}

// parseInt parses an integer field exactly: decimal digits with an optional
// sign and an optional all-zero fraction ("12.0"), or a number with an
// exponent whose value is a whole number within ±2^53. It does not allocate
// on the common path.
func parseInt(b []byte) (int64, number) {
	i, neg := 0, false
	if i < len(b) && (b[i] == '-' || b[i] == '+') {
		neg = b[i] == '-'
		i++
	}
	var mant uint64
	digits, over := 0, false
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		d := uint64(b[i] - '0')
		if mant > (math.MaxUint64-d)/10 {
			over = true
		} else {
			mant = mant*10 + d
		}
		digits++
	}
	fraction := false
	if i < len(b) && b[i] == '.' {
		i++
		for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			fraction = fraction || b[i] != '0'
			digits++
		}
	}
	if i != len(b) {
		return parseIntSlow(b)
	}
	switch {
	case digits == 0:
		return 0, numBad
	case fraction:
		return 0, numFraction
	case over, !neg && mant > math.MaxInt64, neg && mant > 1<<63:
		return 0, numRange
	case neg:
		return int64(-mant), numOK // -(1<<63) wraps to itself: MinInt64
	}
	return int64(mant), numOK
}

// parseIntSlow handles exponents and rejects garbage.
func parseIntSlow(b []byte) (int64, number) {
	if !isDecimal(b) {
		return 0, numBad
	}
	v, err := strconv.ParseFloat(string(b), 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return 0, numBad
	case err != nil, math.Abs(v) > maxExact:
		return 0, numRange
	case v != math.Trunc(v):
		return 0, numFraction
	}
	return int64(v), numOK
}

// parseNumber parses a decimal number (field 6, header values) without
// allocating in the common cases (integers and short decimals). integral
// reports whether the value is a whole number; ok is false for anything that
// is not a finite decimal number.
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
	if !isDecimal(b) {
		return 0, false, false
	}
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

// ParseDecimal parses a finite decimal number as the toolkit writes and
// reads them everywhere (fields, tokens, option values): digits, sign,
// point and exponent only, so that hex ("0x1p4"), "Inf", "NaN" and "_",
// which strconv.ParseFloat accepts, are errors.
func ParseDecimal(s string) (float64, error) {
	if s == "" || !isDecimal([]byte(s)) {
		return 0, fmt.Errorf("%q is not a decimal number", s)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a finite decimal number", s)
	}
	return v, nil
}
