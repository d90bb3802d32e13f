package cmdio

import (
	"runtime/debug"
	"strings"
	"sync"
)

// BuildVersion returns Version with the identity of the build that runs:
// "+" and the first 12 hex digits of the commit it was built from, and
// "-dirty" when the work tree had changes, as go build stamps them into a
// binary built in a git checkout (vcs.revision, vcs.modified). Provenance
// records it, so that swfstat --replay flags a file made by another build
// of one version string (an output changed between two commits of
// 0.1.0-dev). A binary without the stamp (go test, -buildvcs=false, a
// build outside a checkout) gives Version as it is.
var BuildVersion = sync.OnceValue(func() string {
	info, _ := debug.ReadBuildInfo()
	return stampVersion(Version, info)
})

// stampVersion appends the vcs stamp of info (nil: none) to version.
func stampVersion(version string, info *debug.BuildInfo) string {
	if info == nil {
		return version
	}
	var revision string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if revision == "" {
		return version
	}
	revision = revision[:min(len(revision), 12)]
	sep := "+"
	if strings.Contains(version, "+") {
		sep = "." // already carries build metadata (an -X Version=1.2+ci)
	}
	version += sep + revision
	if modified {
		version += "-dirty"
	}
	return version
}
