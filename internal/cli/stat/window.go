package statcli

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // archive traces name their time zone; resolve it on any machine

	"github.com/swfkit/swfkit/pkg/swf"
)

// clock relates a trace's times (seconds) to dates: UnixStartTime is time 0,
// dates are read and shown in the header's TimeZoneString (else its
// TimeZone offset, else UTC).
type clock struct {
	origin int64
	loc    *time.Location
	known  bool // UnixStartTime given
	// badZone says why the header's TimeZoneString or TimeZone names no
	// zone (swf.Header.Zone: unknown here, "Local", an offset that is no
	// integer): dates cannot be read in it (and are not read in UTC
	// instead).
	badZone error
}

func clockOf(hdr *swf.Header) clock {
	c := clock{loc: time.UTC}
	if v, ok, err := hdr.UnixStartTime(); err == nil && ok && v > 0 {
		c.origin, c.known = v, true
	}
	if loc, _, err := hdr.Zone(); err != nil {
		c.badZone = err
	} else {
		c.loc = loc
	}
	return c
}

// describe names trace time t for a title: a date when the trace has a
// UnixStartTime, else seconds.
func (c clock) describe(t int64) string {
	if !c.known {
		return fmt.Sprintf("t=%d s", t)
	}
	return time.Unix(c.origin+t, 0).In(c.loc).Format("2006-01-02 15:04 MST")
}

var dateLayouts = []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02"}

// at reads one side of a window: trace seconds, or a date in the trace's
// time zone (which needs UnixStartTime).
func (c clock) at(s string) (int64, error) {
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return inBound(s, v)
	}
	for _, layout := range dateLayouts {
		if t, err := time.ParseInLocation(layout, s, c.loc); err == nil {
			if !c.known {
				return 0, fmt.Errorf("%q is a date, but the trace has no UnixStartTime header line; give seconds", s)
			}
			if t.Format(layout) != s {
				// Go moves a local time in a summer-time gap by the gap.
				return 0, fmt.Errorf("%q does not exist in the trace's time zone %s (the clocks skipped it)", s, c.loc)
			}
			if c.badZone != nil {
				if errors.Is(c.badZone, swf.ErrHeaderValue) { // TimeZone, with its line
					return 0, fmt.Errorf("%q is a date, but the trace's time zone is unknown: %v; give seconds", s, c.badZone)
				}
				return 0, fmt.Errorf("%q is a date, but the header's %v, or give seconds", s, c.badZone)
			}
			return inBound(s, t.Unix()-c.origin)
		}
	}
	if err := dateOutOfRange(s); err != nil {
		return 0, err
	}
	return 0, formatError{fmt.Errorf("%q: want seconds since the trace's start or a date YYYY-MM-DD[THH:MM[:SS]]", s)}
}

// dateShape is a date in one of dateLayouts' shapes, whatever its numbers.
var dateShape = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$`)

// dateOutOfRange explains a date of the right shape that no layout read:
// which component is out of range (minute 61, hour 24, February 30). It is
// not a formatError, so that parseWindow reports it rather than another
// split's "want a date" (a colon inside a date is also a split it tries).
func dateOutOfRange(s string) error {
	m := dateShape.FindStringSubmatch(s)
	if m == nil {
		return nil
	}
	n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
	year, month, day := n(1), n(2), n(3)
	switch {
	case month < 1 || month > 12:
		return fmt.Errorf("%q: month %s is out of range (01-12)", s, m[2])
	case day < 1 || day > daysIn(year, time.Month(month)):
		return fmt.Errorf("%q: day %s is out of range for %s %d (01-%02d)", s, m[3], time.Month(month), year, daysIn(year, time.Month(month)))
	case m[4] != "" && n(4) == 24 && n(5) == 0 && (m[6] == "" || n(6) == 0):
		return fmt.Errorf("%q: hour 24 is out of range (00-23); the end of the day is the next day's T00:00", s)
	case m[4] != "" && n(4) > 23:
		return fmt.Errorf("%q: hour %s is out of range (00-23)", s, m[4])
	case m[5] != "" && n(5) > 59:
		return fmt.Errorf("%q: minute %s is out of range (00-59)", s, m[5])
	case m[6] != "" && n(6) > 59:
		return fmt.Errorf("%q: second %s is out of range (00-59)", s, m[6])
	}
	return nil
}

// daysIn is the number of days of the month.
func daysIn(year int, month time.Month) int {
	return time.Date(year, month+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// formatError is a window side that is neither seconds nor a date; other
// errors are about a side that did read as one (a date in a summer-time gap,
// beyond the bound), which is what to report when no split of the window
// reads.
type formatError struct{ error }

// inBound refuses a window side beyond swfkit's time bound (either way):
// no trace time is there, and a span that wide only makes empty charts.
func inBound(s string, v int64) (int64, error) {
	if v > swf.MaxTime || v < -swf.MaxTime {
		return 0, fmt.Errorf("%q is beyond swfkit's time bound (%d s from the trace's start)", s, int64(swf.MaxTime))
	}
	return v, nil
}

// window is a Gantt chart's time span in trace seconds; a side not given
// is the trace's first submit or last end.
type window struct {
	from, to       int64
	hasFrom, hasTo bool
}

// parseWindow reads --window START:END. Dates contain colons, so every colon
// is tried as the separator until both sides read.
func parseWindow(s string, c clock) (window, error) {
	var firstErr error
	for i := 0; i < len(s); i++ {
		if s[i] != ':' {
			continue
		}
		var w window
		var err error
		if a := strings.TrimSpace(s[:i]); a != "" {
			w.from, err = c.at(a)
			w.hasFrom = err == nil
		}
		if b := strings.TrimSpace(s[i+1:]); b != "" && err == nil {
			w.to, err = c.at(b)
			w.hasTo = err == nil
		}
		if err != nil {
			var fe formatError
			if firstErr == nil || errors.As(firstErr, &fe) && !errors.As(err, &fe) {
				firstErr = err
			}
			continue
		}
		if w.hasFrom && w.hasTo && w.from >= w.to {
			return w, fmt.Errorf("--window %s: the end must be after the start", s)
		}
		return w, nil
	}
	if firstErr == nil {
		firstErr = fmt.Errorf("want START:END")
	}
	return window{}, fmt.Errorf("--window %s: %v", s, firstErr)
}
