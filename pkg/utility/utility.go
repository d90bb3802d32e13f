package utility

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Key is the SWF extension-column key of a utility function ("u=...").
const Key = "u"

// Point is one breakpoint of a utility function.
type Point struct {
	Time  float64 // seconds since submission
	Value float64
}

// Func is a piecewise-linear utility function. The zero value has no points and
// is not well formed; Value of an empty Func is 0.
type Func struct {
	Points []Point
}

// Errors returned (wrapped) by Validate and Parse.
var (
	ErrTooFewPoints = errors.New("fewer than two points")
	ErrFirstTime    = errors.New("first time is not 0")
	ErrTimeOrder    = errors.New("times not strictly increasing")
	ErrValueOrder   = errors.New("values increase")
	ErrNegative     = errors.New("negative value")
	ErrNotFinite    = errors.New("number not finite")
	ErrTooLarge     = fmt.Errorf("value beyond %g (swfkit's bound on utilities, so that sums and percentages over a trace stay finite)", MaxValue)
	ErrSyntax       = errors.New("syntax error")
)

// MaxValue bounds a utility value: the utilities of a trace summed (10^6
// jobs and more), or one times 100 for a percentage, stay far inside a
// float64, where 1.7e308 sums to +Inf and prices became NaN.
const MaxValue = 1e300

// Validate reports the first way f is not well formed, or nil.
func (f *Func) Validate() error {
	p := f.Points
	if len(p) < 2 {
		return ErrTooFewPoints
	}
	for i, pt := range p {
		if math.IsNaN(pt.Time) || math.IsInf(pt.Time, 0) || math.IsNaN(pt.Value) || math.IsInf(pt.Value, 0) {
			return fmt.Errorf("point %d: %w", i+1, ErrNotFinite)
		}
		if pt.Value < 0 {
			return fmt.Errorf("point %d: %w", i+1, ErrNegative)
		}
		if pt.Value > MaxValue {
			return fmt.Errorf("point %d: %w", i+1, ErrTooLarge)
		}
		if i == 0 {
			if pt.Time != 0 {
				return ErrFirstTime
			}
			continue
		}
		if pt.Time <= p[i-1].Time {
			return fmt.Errorf("point %d: %w", i+1, ErrTimeOrder)
		}
		if pt.Value > p[i-1].Value {
			return fmt.Errorf("point %d: %w", i+1, ErrValueOrder)
		}
	}
	return nil
}

// Value returns the utility of completing t seconds after submission. It does not
// allocate. The search is linear for short functions and binary for long ones.
func (f *Func) Value(t float64) float64 {
	p := f.Points
	n := len(p)
	if n == 0 {
		return 0
	}
	if t <= p[0].Time {
		return p[0].Value
	}
	if t > p[n-1].Time {
		return 0
	}
	// Find the first point with Time >= t; it exists and has index >= 1.
	var i int
	if n <= 16 {
		i = 1
		for p[i].Time < t {
			i++
		}
	} else {
		lo, hi := 1, n-1
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			if p[mid].Time < t {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		i = lo
	}
	a, b := p[i-1], p[i]
	if t == b.Time {
		return b.Value
	}
	// The fraction first: (b.Value-a.Value)*(t-a.Time) can overflow.
	frac := (t - a.Time) / (b.Time - a.Time)
	return a.Value + (b.Value-a.Value)*frac
}

// Start returns the first (maximum) value, or 0 for an empty Func.
func (f *Func) Start() float64 {
	if len(f.Points) == 0 {
		return 0
	}
	return f.Points[0].Value
}

// Deadline returns the time of the last point: the value is 0 after it.
func (f *Func) Deadline() float64 {
	if len(f.Points) == 0 {
		return 0
	}
	return f.Points[len(f.Points)-1].Time
}

// AppendFormat appends the token value "t0:v0,t1:v1,..." (without "u=") to dst.
func (f *Func) AppendFormat(dst []byte) []byte {
	for i, pt := range f.Points {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendFloat(dst, pt.Time, 'f', -1, 64)
		dst = append(dst, ':')
		dst = strconv.AppendFloat(dst, pt.Value, 'f', -1, 64)
	}
	return dst
}

// String returns the token value "t0:v0,t1:v1,...".
func (f *Func) String() string {
	return string(f.AppendFormat(nil))
}

// Token returns the whole extension token "u=t0:v0,...".
func (f *Func) Token() string {
	return string(f.AppendFormat([]byte(Key + "=")))
}

// Parse parses "t0:v0,t1:v1,..." (the token value without "u=") into f, reusing
// f.Points, and validates the result. On error f's contents are unspecified.
// It does not allocate when f.Points has enough capacity.
func (f *Func) Parse(s string) error {
	f.Points = f.Points[:0]
	if s == "" {
		return fmt.Errorf("utility: empty function: %w", ErrSyntax)
	}
	for start := 0; start <= len(s); {
		end := start
		for end < len(s) && s[end] != ',' {
			end++
		}
		pair := s[start:end]
		colon := -1
		for j := 0; j < len(pair); j++ {
			if pair[j] == ':' {
				colon = j
				break
			}
		}
		n := len(f.Points) + 1
		if colon < 0 {
			return &SyntaxError{Point: n, Text: pair, Err: ErrSyntax}
		}
		t, err := parseNumber(pair[:colon])
		if err != nil {
			return &SyntaxError{Point: n, Text: pair, Err: err}
		}
		v, err := parseNumber(pair[colon+1:])
		if err != nil {
			return &SyntaxError{Point: n, Text: pair, Err: err}
		}
		f.Points = append(f.Points, Point{Time: t, Value: v})
		start = end + 1
	}
	if err := f.Validate(); err != nil {
		return fmt.Errorf("utility: %w", err)
	}
	return nil
}

// parseNumber accepts decimal numbers only: no hex, no "Inf", no "NaN", no "_".
func parseNumber(s string) (float64, error) {
	if s == "" {
		return 0, ErrSyntax
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E') {
			return 0, ErrSyntax
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		// strconv's error would allocate a copy of s; ours does not.
		if errors.Is(err, strconv.ErrRange) {
			return 0, ErrNotFinite
		}
		return 0, ErrSyntax
	}
	return v, nil
}

// Parse returns the function of a token value "t0:v0,t1:v1,...".
func Parse(s string) (Func, error) {
	var f Func
	err := f.Parse(s)
	return f, err
}

// SyntaxError locates a malformed point in a token.
type SyntaxError struct {
	Point int    // 1-based
	Text  string // the point's text
	Err   error
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("utility: point %d %q: %v", e.Point, e.Text, e.Err)
}

func (e *SyntaxError) Unwrap() error { return e.Err }
