package swf

import (
	"strings"
	"time"
)

// DateLayout is how the archive writes the header's StartTime and EndTime:
// date(1)'s output with the day of the month padded with a zero
// ("Fri Aug 29 10:55:01 CEST 1997", "Tue Oct 04 07:01:12 MDT 1994").
const DateLayout = "Mon Jan 02 15:04:05 MST 2006"

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
