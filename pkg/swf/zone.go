package swf

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// LoadZone returns the time zone a header's TimeZoneString names: a name of
// the IANA zone database (Europe/Stockholm, US/Pacific, UTC). time.LoadLocation
// would also take "Local", the zone of whichever machine reads the log, so
// that its dates would mean other times on other machines, and "", UTC; neither
// names the log's zone, and both are errors here.
func LoadZone(name string) (*time.Location, error) {
	name = strings.TrimSpace(name)
	switch name {
	case "":
		return nil, errors.New("TimeZoneString is empty: it names no time zone (an IANA name such as Europe/Stockholm)")
	case "Local":
		return nil, errors.New(`TimeZoneString "Local" names no time zone: it is the zone of whichever machine reads the log (an IANA name such as Europe/Stockholm)`)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("TimeZoneString %q is no time zone this system knows (an IANA name such as Europe/Stockholm)", name)
	}
	return loc, nil
}
