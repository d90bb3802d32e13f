package convert

import "testing"

func TestGuess(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"0 1356996147 0 56011 64 1 1024 64 86400 68719476736 1 62 1 1 -1 1 1 1 {1241,1241} q_1d 1:ppn=64:x86_64", "alea"},
		{"0 1 0 5 1 1 1 1 1 1 1 1 1 1 -1 1 1 1 {} q p", "alea"},
		{"JobID|JobIDRaw|User|Submit|Start|End|State|AllocCPUS", "sacct"},
		{"JobID|Submit|Start|End|State|AllocCPUS|", "sacct"}, // --parsable
		{"jobid | submit | state", "sacct"},
		{"1 0 1 10 8 -1 -1 8 20 -1 1 1 1 1 1 1 -1 -1 x", ""},
		{"0 1 0 5 1 1 1 1 1 1 1 1 1 1 -1 1 1 1 1241 q p", ""},
		{"353|353|timeout|swfalice", ""}, // a job line: a dump without its header does not convert
		{"JobID,Submit,State", ""},
		{"", ""},
		{"garbage", ""},
	} {
		if got := Guess(tc.line); got != tc.want {
			t.Errorf("Guess(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}
