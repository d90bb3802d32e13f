package swf

import (
	"strings"
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

// DateLayoutOf tells the padding of the day from a day below 10, and a
// date written with the layout it returns reads the same as the input.
func TestDateLayoutOf(t *testing.T) {
	stockholm, err := time.LoadLocation("Europe/Stockholm")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		text, want string // want: the date 1996-09-08 14:00:31 CEST in that layout, "" when not ok
	}{
		{"Tue Oct 04 07:01:12 MDT 1994", "Sun Sep 08 14:00:31 CEST 1996"}, // the archive's (LANL-CM5)
		{"Tue Oct  4 07:01:12 MDT 1994", "Sun Sep  8 14:00:31 CEST 1996"}, // asctime's
		{"Tue Oct 4 07:01:12 MDT 1994", "Sun Sep 8 14:00:31 CEST 1996"},
		{"  Tue  Oct  4 07:01:12 MDT 1994", "Sun Sep  8 14:00:31 CEST 1996"},
		{"Tue  Oct 4 07:01:12 MDT 1994", "Sun Sep 8 14:00:31 CEST 1996"}, // the blanks before the day count
		{"Tue Oct\t 4 07:01:12 MDT 1994", "Sun Sep  8 14:00:31 CEST 1996"},
		{"Fri Aug 29 10:55:01 CEST 1997", ""}, // a day of two digits shows nothing
		{"Tue Oct 4x 07:01:12 MDT 1994", ""},
		{"Tue Oct 4 07:01:12 1994", ""},
		{"", ""},
	} {
		layout, ok := DateLayoutOf(tc.text)
		if ok != (tc.want != "") {
			t.Errorf("%q: ok %v, want %v", tc.text, ok, !ok)
			continue
		}
		if !ok {
			continue
		}
		if got := time.Unix(842184031, 0).In(stockholm).Format(layout); got != tc.want {
			t.Errorf("%q: layout %q writes %q, want %q", tc.text, layout, got, tc.want)
		}
	}
}

// FuzzDateLayoutOf: on any text DateLayoutOf does not panic, and a date it
// gives a layout for is written back with the same day token.
func FuzzDateLayoutOf(f *testing.F) {
	for _, s := range []string{"Tue Oct 04 07:01:12 MDT 1994", "Tue Oct  4 07:01:12 MDT 1994", "Tue Oct 4 07:01:12 MDT 1994",
		"Tue\tOct\t\t4 07:01:12 MDT 1994", "Fri Aug 29 10:55:01 CEST 1997", "a b 1 c d e", " \u00a0 \u00a0 \u00a0 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		layout, ok := DateLayoutOf(s)
		if !ok {
			return
		}
		parsed, _, err := ParseDate(s, time.UTC)
		if err != nil {
			return
		}
		if got, want := strings.Fields(parsed.Format(layout))[2], strings.Fields(s)[2]; got != want {
			t.Errorf("%q: layout %q writes day %q", s, layout, got)
		}
	})
}
