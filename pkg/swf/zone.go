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
