package swf

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// LoadZone returns the time zone a header's TimeZoneString names: a name of
// the IANA zone database (Europe/Stockholm, US/Pacific, UTC). time.LoadLocation
// also takes names that are the zone of whichever machine reads the log
// ("Local"; "localtime", a file of many systems' zone folders), so that the
// log's dates would mean other times on other machines, files of the folder
// that are no zone of a place ("posixrules", "Factory"), and "" as UTC; none
// of these names the log's zone, and all are errors here. (Names are matched
// as the zone folder spells them; on a file system that ignores case, as
// macOS's does, "us/pacific" would load there and not on Linux.)
func LoadZone(name string) (*time.Location, error) {
	name = strings.TrimSpace(name)
	const give = "give an IANA name such as Europe/Stockholm"
	switch strings.ToLower(name) {
	case "":
		return nil, errors.New("TimeZoneString is empty; " + give)
	case "local", "localtime":
		return nil, fmt.Errorf("TimeZoneString %q is the zone of whichever machine reads the log, not the log's; %s", name, give)
	case "posixrules", "factory":
		return nil, fmt.Errorf("TimeZoneString %q is no zone of a place; %s", name, give)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("TimeZoneString %q is no time zone this system knows; %s", name, give)
	}
	return loc, nil
}

// maxZoneOffset bounds a TimeZone offset: no zone is more than 14 hours from
// UTC, so a value beyond a day is no offset in seconds (hours, minutes).
const maxZoneOffset = 24 * 3600

// TimeZoneOffset reads the header's deprecated TimeZone label, the log's
// offset from UTC in seconds (3600 for Central Europe in winter): ok is false
// when the label is absent; a value that is not an integer (as Int reads
// it) or lies beyond a day either way is an error naming the line.
func (h *Header) TimeZoneOffset() (offset int64, ok bool, err error) {
	v, ok, err := h.Int("TimeZone")
	if err != nil || !ok {
		return 0, ok, err
	}
	line, value := 0, ""
	for _, l := range h.Lines {
		if !l.Continuation && strings.EqualFold(l.Label, "TimeZone") {
			line, value = l.Line, strings.TrimSpace(l.Value)
			break
		}
	}
	fail := func(format string, a ...any) (int64, bool, error) {
		return 0, true, &ParseError{File: h.File, Line: line, Err: ErrHeaderValue,
			Detail: "header label TimeZone: " + fmt.Sprintf(format, a...)}
	}
	if v < -maxZoneOffset || v > maxZoneOffset {
		return fail("expected an offset from UTC in seconds, within a day (±%d), got %d", maxZoneOffset, v)
	}
	// Words after the number must say seconds (or comment in
	// parentheses): "1 hour" read as its leading integer is 1 s.
	if _, rest, _ := strings.Cut(value, " "); rest != "" {
		rest = strings.ToLower(strings.TrimSpace(rest))
		if !strings.HasPrefix(rest, "(") && !strings.HasPrefix(rest, "s") {
			return fail("expected an offset from UTC in seconds, got %q", value)
		}
	}
	return v, true, nil
}

// Zone returns the time zone the log's dates are in: TimeZoneString's
// (LoadZone), else the fixed offset of the deprecated TimeZone
// (TimeZoneOffset), else UTC with ok false. A label that is present but names
// no zone is an error, never UTC instead: dates read in another zone than
// the log's would select other jobs without a word.
func (h *Header) Zone() (loc *time.Location, ok bool, err error) {
	if name, ok := h.Get("TimeZoneString"); ok {
		loc, err := LoadZone(name)
		return loc, true, err
	}
	off, ok, err := h.TimeZoneOffset()
	if err != nil {
		return nil, true, err
	}
	if !ok {
		return time.UTC, false, nil
	}
	sign, a := "+", off
	if off < 0 {
		sign, a = "-", -off
	}
	name := fmt.Sprintf("UTC%s%d", sign, a/3600)
	if a%3600 != 0 {
		name += fmt.Sprintf(":%02d", a%3600/60)
	}
	return time.FixedZone(name, int(off)), true, nil
}
