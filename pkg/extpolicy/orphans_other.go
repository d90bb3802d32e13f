//go:build !linux

package extpolicy

// becomeSubreaper: a child subreaper is Linux's (prctl): elsewhere a
// process the program started outside its process group (setsid) is left
// to init.
func becomeSubreaper() {}

// killOrphans does nothing outside Linux (see becomeSubreaper).
func killOrphans(group int, token string) {}
