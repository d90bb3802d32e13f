// Package testutil helps tests find the repository root and the shared archive
// traces (../shared/data beside the repository), skipping when they are absent.
package testutil

import (
	"os"
	"path/filepath"
	"testing"
)

// RepoRoot returns the directory holding go.mod, walking up from the working
// directory of the test.
func RepoRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("testutil: go.mod not found above the test directory")
		}
		dir = parent
	}
}

// SharedData returns the path of ../shared/data, skipping the test when absent.
func SharedData(tb testing.TB) string {
	tb.Helper()
	dir := filepath.Join(RepoRoot(tb), "..", "shared", "data")
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("skipping: archive traces not found at %s (clone the project with shared/ beside it)", dir)
	}
	return dir
}

// Trace returns the path of one trace in ../shared/data, skipping when absent.
func Trace(tb testing.TB, name string) string {
	tb.Helper()
	path := filepath.Join(SharedData(tb), name)
	if _, err := os.Stat(path); err != nil {
		tb.Skipf("skipping: trace %s not found", path)
	}
	return path
}

// Traces lists the SWF traces in ../shared/data (the gzip files at its top level).
func Traces(tb testing.TB) []string {
	tb.Helper()
	matches, err := filepath.Glob(filepath.Join(SharedData(tb), "*.swf.gz"))
	if err != nil || len(matches) == 0 {
		tb.Skip("skipping: no traces in ../shared/data")
	}
	return matches
}

// NotSWF returns the path of the non-SWF file in ../shared/data/not-swf.
func NotSWF(tb testing.TB) string {
	return Trace(tb, filepath.Join("not-swf", "MetaCentrum-wagap-2013-alea-format.gz"))
}
