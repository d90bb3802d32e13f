package swf

import (
	"testing"
	"time"
	_ "time/tzdata" // the archive's zones on any machine
)

func TestParseDate(t *testing.T) {
	stockholm, err := time.LoadLocation("Europe/Stockholm")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		text  string
		loc   *time.Location
		unix  int64 // when exact
		exact bool
		bad   bool
	}{
		// KTH-SP2's header: StartTime is UnixStartTime 843480031.
		{"Mon Sep 23 14:00:31 CEST 1996", stockholm, 843480031, true, false},
		{"Fri Aug 29 10:55:01 CEST 1997", stockholm, 872844901, true, false},
		{"  Tue  Sep  3 14:00:31 CEST 1996", stockholm, 841752031, true, false}, // padded with blanks
		{"Tue Oct 04 07:01:12 MDT 1994", stockholm, 0, false, false},            // not Stockholm's zone
		{"Fri Jan 10 10:00:00 CEST 1997", stockholm, 0, false, false},           // CET was in effect
		{"Fri Aug 29 10:55:01 CEST 1997", time.UTC, 0, false, false},
		{"Sun Nov 20 00:00:05 UTC 2005", time.UTC, 1132444805, true, false},
		{"1997-08-29 10:55:01", stockholm, 0, false, true},
		{"", time.UTC, 0, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			got, exact, err := ParseDate(tc.text, tc.loc)
			if (err != nil) != tc.bad {
				t.Fatalf("error %v, want error %v", err, tc.bad)
			}
			if exact != tc.exact {
				t.Errorf("exact %v, want %v (%v)", exact, tc.exact, got)
			}
			if tc.exact && got.Unix() != tc.unix {
				t.Errorf("%v = %d, want %d", got, got.Unix(), tc.unix)
			}
		})
	}
}

func TestDateLayoutRoundTrip(t *testing.T) {
	stockholm, err := time.LoadLocation("Europe/Stockholm")
	if err != nil {
		t.Fatal(err)
	}
	for _, unix := range []int64{843480031, 872844901, 852886800} {
		text := time.Unix(unix, 0).In(stockholm).Format(DateLayout)
		got, exact, err := ParseDate(text, stockholm)
		if err != nil || !exact || got.Unix() != unix {
			t.Errorf("%d -> %q -> %v exact %v err %v", unix, text, got.Unix(), exact, err)
		}
	}
}
