package cmdio

import (
	"os"
	"runtime/debug"
	"testing"
)

func TestStampVersion(t *testing.T) {
	stamp := func(kv ...string) *debug.BuildInfo {
		info := &debug.BuildInfo{}
		for i := 0; i < len(kv); i += 2 {
			info.Settings = append(info.Settings, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return info
	}
	const rev = "4338ed0a1b2c3d4e5f60718293a4b5c6d7e8f901"
	for _, tc := range []struct {
		name, version string
		info          *debug.BuildInfo
		want          string
	}{
		{"no build info", "0.1.0-dev", nil, "0.1.0-dev"},
		// The settings of a test binary (go version -m on go test -c's):
		// go test stamps no vcs by default (-buildvcs=auto), so that
		// BuildVersion() is Version under test and the golden files
		// hold version=0.1.0-dev whichever commit runs them. Given
		// -buildvcs=true (or in GOFLAGS) it stamps the test binary too
		// (go1.26): TestBuildVersionUnstampedInTests then says why the
		// golden tests fail.
		{"no vcs stamp (go test)", "0.1.0-dev", stamp("-buildmode", "exe", "-compiler", "gc", "CGO_ENABLED", "1", "GOARCH", "amd64", "GOOS", "linux", "GOAMD64", "v1"), "0.1.0-dev"},
		// A stamp without a revision (a vcs setting alone) has no commit
		// to name: nothing is appended, not even -dirty.
		{"vcs without revision", "0.1.0-dev", stamp("vcs", "git", "vcs.modified", "true"), "0.1.0-dev"},
		{"clean checkout", "0.1.0-dev", stamp("vcs", "git", "vcs.revision", rev, "vcs.modified", "false"), "0.1.0-dev+4338ed0a1b2c"},
		{"modified work tree", "0.1.0-dev", stamp("vcs.revision", rev, "vcs.modified", "true"), "0.1.0-dev+4338ed0a1b2c-dirty"},
		{"short revision", "0.1.0-dev", stamp("vcs.revision", "abc"), "0.1.0-dev+abc"},
		{"version with metadata", "1.2.0+ci7", stamp("vcs.revision", rev), "1.2.0+ci7.4338ed0a1b2c"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := stampVersion(tc.version, tc.info); got != tc.want {
				t.Errorf("stampVersion(%q) = %q, want %q", tc.version, got, tc.want)
			}
		})
	}
}

// TestBuildVersionUnstampedInTests: the golden files hold
// version=0.1.0-dev, what BuildVersion returns in a binary without a vcs
// stamp. go test stamps none by default, but does with -buildvcs=true
// (go test -buildvcs=true, or GOFLAGS=-buildvcs=true: checked with go1.26),
// and every golden test then fails on its version= lines; this test says
// why in one line.
func TestBuildVersionUnstampedInTests(t *testing.T) {
	if got := BuildVersion(); got != Version {
		t.Errorf("BuildVersion() = %q in this test binary, want %q: the golden files' version= lines hold it; run go test without -buildvcs=true (GOFLAGS=%q)", got, Version, os.Getenv("GOFLAGS"))
	}
}
