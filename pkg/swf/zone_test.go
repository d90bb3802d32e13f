package swf

import (
	"strings"
	"testing"
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
