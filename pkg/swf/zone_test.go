package swf

import (
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // the archive's zones on any machine
)

// TestLoadZone: the archive's zone names load; "Local", an empty value and an
// unknown name are errors that say why, whatever the machine's own zone.
func TestLoadZone(t *testing.T) {
	for _, name := range []string{"Europe/Stockholm", " US/Pacific ", "Asia/Tokyo", "UTC"} {
		loc, err := LoadZone(name)
		if err != nil || loc.String() != strings.TrimSpace(name) {
			t.Errorf("LoadZone(%q) = %v, %v", name, loc, err)
		}
	}
	for name, want := range map[string]string{
		"Local":        `"Local" is the zone of whichever machine reads the log`,
		"localtime":    `"localtime" is the zone of whichever machine reads the log`,
		"posixrules":   `"posixrules" is no zone of a place`,
		"Factory":      `"Factory" is no zone of a place`,
		" ":            "TimeZoneString is empty",
		"Mars/Olympus": `"Mars/Olympus" is no time zone this system knows`,
	} {
		if _, err := LoadZone(name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("LoadZone(%q): error %v, want one with %q", name, err, want)
		}
	}
}

// TestHeaderZone: TimeZoneString wins; without it the deprecated TimeZone is
// a fixed offset in seconds; a TimeZone that is no integer or lies beyond a
// day is an error naming its line (never UTC instead); neither is UTC.
func TestHeaderZone(t *testing.T) {
	at := time.Unix(1000000000, 0) // 2001-09-09 01:46:40 UTC
	for _, tc := range []struct {
		header   string
		ok       bool
		offset   int    // seconds east of UTC at `at`
		name     string // of the zone
		errorHas string
	}{
		{"", false, 0, "UTC", ""},
		{"; TimeZone: 3600\n", true, 3600, "UTC+1", ""},
		{"; TimeZone: -25200\n", true, -25200, "UTC-7", ""},
		{"; TimeZone: 19800 (India)\n", true, 19800, "UTC+5:30", ""},
		{"; TimeZone: -34200\n", true, -34200, "UTC-9:30", ""},
		{"; TimeZone: -1800\n", true, -1800, "UTC-0:30", ""},
		{"; TimeZone: 0\n", true, 0, "UTC+0", ""},
		{"; TimeZone: 86400\n", true, 86400, "UTC+24", ""},
		{"; TimeZone: 3600\n; TimeZoneString: Europe/Stockholm\n", true, 7200, "Europe/Stockholm", ""},
		{"; TimeZone: abc\n; TimeZoneString: UTC\n", true, 0, "UTC", ""}, // TimeZoneString wins
		{"; MaxProcs: 8\n; TimeZone: abc\n", true, 0, "", `t.swf:2: header label TimeZone: expected an integer, got "abc"`},
		{"; TimeZone: 86401\n", true, 0, "", "t.swf:1: header label TimeZone: expected an offset from UTC in seconds, within a day (±86400), got 86401"},
		{"; TimeZone: -99999\n", true, 0, "", "got -99999"},
		{"; TimeZone: 1 hour\n", true, 0, "", `expected an offset from UTC in seconds, got "1 hour"`},
		{"; TimeZone: 3600 seconds\n", true, 3600, "UTC+1", ""},
		{"; TimeZone: 3600 s\n", true, 3600, "UTC+1", ""},
		{"; TimeZoneString: Local\n; TimeZone: 0\n", true, 0, "", `"Local" is the zone of whichever machine`},
	} {
		r := NewReader(strings.NewReader(tc.header + "1 0 1 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"))
		r.Name = "t.swf"
		h, err := r.Header()
		if err != nil {
			t.Fatal(err)
		}
		loc, ok, err := h.Zone()
		if tc.errorHas != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errorHas) {
				t.Errorf("%q: Zone() error %v, want one with %q", tc.header, err, tc.errorHas)
			}
			continue
		}
		if err != nil || ok != tc.ok || loc.String() != tc.name {
			t.Errorf("%q: Zone() = %v, %v, %v; want %s, %v", tc.header, loc, ok, err, tc.name, tc.ok)
			continue
		}
		if _, off := at.In(loc).Zone(); off != tc.offset {
			t.Errorf("%q: offset %d, want %d", tc.header, off, tc.offset)
		}
	}
}
