package cmdio

import "strconv"

// Counted writes n with one, the noun's singular, when n is 1, and with
// many otherwise ("1 line", "0 lines", "3 simulated jobs name"): the
// tools' warnings, Notes and reports count with it.
func Counted[N ~int | ~int64](n N, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.FormatInt(int64(n), 10) + " " + many
}
