package swf

import (
	"strings"
	"time"
	"unicode"
)

// DateLayout is how the archive writes the header's StartTime and EndTime:
// date(1)'s output with the day of the month padded with a zero
// ("Fri Aug 29 10:55:01 CEST 1997", "Tue Oct 04 07:01:12 MDT 1994").
const DateLayout = "Mon Jan 02 15:04:05 MST 2006"

// The other layouts of a header date, by how the day of the month is padded:
// C's asctime and some date(1)s pad it with a blank ("Tue Oct  4"), a header
// written by hand may not pad it ("Tue Oct 4"). The archive's own logs pad it
// with a zero (DateLayout).
const (
	dateLayoutBlankDay    = "Mon Jan _2 15:04:05 MST 2006"
	dateLayoutUnpaddedDay = "Mon Jan 2 15:04:05 MST 2006"
)

// DateLayoutOf returns the layout that writes a date as s writes its day of
// the month: DateLayout for one padded with a zero ("Oct 04"), a blank-padded
// layout for "Oct  4" (two or more blanks before the day) and an unpadded one
// for "Oct 4", so that a tool rewriting a header date keeps the file's style.
// ok is false when s does not show it: a day of two digits other than 0N
// ("Oct 14" is the same in every layout), or s not a date of six fields.
func DateLayoutOf(s string) (layout string, ok bool) {
	fields := strings.Fields(s)
	if len(fields) != 6 {
		return "", false
	}
	day := fields[2]
	switch {
	case len(day) == 2 && day[0] == '0' && isDigit(day[1]):
		return DateLayout, true
	case len(day) != 1 || !isDigit(day[0]):
		return "", false
	}
	// The blanks before the day: what is left once the weekday and the month
	// are cut off, as strings.Fields splits them.
	rest := s
	for range 2 {
		rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
		rest = rest[strings.IndexFunc(rest, unicode.IsSpace):]
	}
	if blanks := len(rest) - len(strings.TrimLeftFunc(rest, unicode.IsSpace)); blanks >= 2 {
		return dateLayoutBlankDay, true
	}
	return dateLayoutUnpaddedDay, true
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// ParseDate reads a header date (StartTime, EndTime) written as date(1)
// prints it. Runs of blanks count as one ("EndTime:   Fri Aug 29 ..."), and
// the day may be padded with a blank or a zero. The zone abbreviation is
// looked up in loc: exact reports that it is the abbreviation loc uses at
// that time, so that t is the instant the text means. Otherwise t is only
// right to within a zone's offset: an abbreviation loc does not know (any
// but UTC's in time.UTC) is read as offset 0, as time.Parse does.
func ParseDate(s string, loc *time.Location) (t time.Time, exact bool, err error) {
	text := strings.Join(strings.Fields(s), " ")
	t, err = time.ParseInLocation("Mon Jan _2 15:04:05 MST 2006", text, loc)
	if err != nil {
		return time.Time{}, false, err
	}
	// The layout has five fields before the year; the fifth is the zone.
	abbreviation := strings.Fields(text)[4]
	inEffect, _ := t.Zone()
	return t, t.Location() == loc && inEffect == abbreviation, nil
}
