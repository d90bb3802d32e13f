package clean

import (
	"reflect"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/internal/testutil"
)

// TestAnonymizeIdsInFreeText: header lines of free text (Notes, their
// continuation lines, Notes and Provenance lines of swfkit's tools) that name
// an id of a kind anonymize renumbered with a number are kept as written, a
// warning names each with its input line and kinds, and a Note says how many
// there are. A kind whose numbers all stayed (groups 1, 2 here) is not
// flagged; counts ("128 users"), flag names (top-apps=10), swfclean's own
// Note about dropped Queues lines and renumbered Queue lines are not ids.
// Without anonymize, or when no number changed, nothing is said.
func TestAnonymizeIdsInFreeText(t *testing.T) {
	const head = `; Version: 2.2
; Note: group 1 is normal users
;       group 2 is system personnel
; Note: THIS IS A CLEANED VERSION OF THE LOG!
;       The filters used to produce it were
;         user=4 and (job>=3874 and job<=5925) (2038 jobs removed)
;         users 3 and 7 ran app 12 in queue 5 (12 jobs removed)
; Note: swfclean filter user=4: 12 jobs removed
; Note: swfclean rule anonymize: dropped 1 header line describing queues in free text (Queues, or Queue without a leading number): the queue numbers in them are the input's, not those of the renumbered field 15; --set 'Queues=TEXT' describes the queues again
; Note: swfaugment bounds (Guim et al. 2007, Tables 3-4): upper=0.9 x p90, lower=0.1 x upper over 2 jobs: runtime none (no job with a known runtime), top 3 applications [12 7 44]
; Note: swfsim priority-order 5,0 (highest first; unlisted queues after, by number; unknown queue (-1) last)
; Note: 128 users, 4 queues, partitions of 64 nodes
; Provenance: swfclean version=0.1.0 filter="user=4" input=/data/user4.swf
; Provenance: swfaugment version=0.1.0 bounds=true top-apps=10 input=/data/user4.swf
; MaxQueues: 2
; Queue: 5 batch
; Queue: 0 interactive
;    #  user group app queue
;
`
	const (
		// user 374 -> 1, 4 -> 2; group 1, 2 stay; executable 12 -> 1; queue
		// 5 -> 1, 0 stays; partition 1 stays.
		renumbered = "1 0 5 100 4 -1 -1 4 500 -1 1 374 1 12 5 1 -1 -1\n2 1 5 100 4 -1 -1 4 500 -1 1 4 2 12 0 1 -1 -1\n"
		// groups 2 -> 1, 1 -> 2 as well.
		groupsToo = "1 0 5 100 4 -1 -1 4 500 -1 1 374 2 12 5 1 -1 -1\n2 1 5 100 4 -1 -1 4 500 -1 1 4 1 12 0 1 -1 -1\n"
		// every id 1..N in order of first appearance, queues up to the
		// header's 5.
		unchanged = "1 0 5 100 4 -1 -1 4 500 -1 1 1 1 1 1 1 -1 -1\n2 1 5 100 4 -1 -1 4 500 -1 1 2 2 2 2 1 -1 -1\n" +
			"3 2 5 100 4 -1 -1 4 500 -1 1 1 1 1 3 1 -1 -1\n4 3 5 100 4 -1 -1 4 500 -1 1 1 1 1 4 1 -1 -1\n5 4 5 100 4 -1 -1 4 500 -1 1 1 1 1 5 1 -1 -1\n"
		user9 = "3 2 5 100 4 -1 -1 4 500 -1 1 9 1 12 5 1 -1 -1\n"
	)
	warning := func(line, kinds string) string {
		return "t.swf:" + line + ": header line may name " + kinds + " ids from before the renumbering"
	}
	check := func(lines string) string {
		return "rule anonymize keeps free text as written: check the " + lines +
			" header lines above before the log is published (--anonymize-map writes the old and new numbers)"
	}
	flagged := []string{
		warning("6", "user"), warning("7", "user, executable or queue"), warning("8", "user"),
		warning("10", "executable"), warning("11", "queue"), warning("13", "user"),
	}
	// flaggedAnd is flagged followed by more warnings.
	flaggedAnd := func(more ...string) []string { return append(append([]string(nil), flagged...), more...) }
	note := func(lines, kinds string) []string {
		return []string{"rule anonymize: " + lines + " header lines may name " + kinds +
			" ids from before the renumbering (free text, kept as written: its numbers are not rewritten)"}
	}
	input := strings.Split(strings.TrimSuffix(head, "\n"), "\n")
	renumberedInput := append(append(append([]string(nil), input[:15]...), "; Queue: 1 batch"), input[16:]...)
	for _, tc := range []struct {
		name     string
		records  string
		cfg      Config
		input    []string // the input's header lines after Annotate
		warnings []string
		notes    []string
	}{
		{"renumbered", renumbered, Config{Rules: []string{"anonymize"}}, renumberedInput, flaggedAnd(check("6")),
			note("6", "user, executable or queue")},
		{"groups renumbered", groupsToo, Config{Rules: []string{"anonymize"}}, renumberedInput,
			append([]string{warning("2", "group"), warning("3", "group")}, flaggedAnd(check("8"))...),
			note("8", "user, group, executable or queue")},
		// This run's filter ran before the renumbering: its Note names the
		// input's user 9.
		{"this run's filter", renumbered + user9, Config{Rules: []string{"anonymize"}, Drop: []*Filter{mustFilter(t, "user=9")}},
			renumberedInput, flaggedAnd(
				`this run's Note "swfclean filter user=9: 1 job removed" may name user ids from before the renumbering`, check("7")),
			note("7", "user, executable or queue")},
		{"numbers unchanged", unchanged, Config{Rules: []string{"anonymize"}}, input, nil, nil},
		{"without anonymize", renumbered + user9, Config{Rules: DefaultRules(), Drop: []*Filter{mustFilter(t, "user=9")}}, input, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hdr, jobs := testutil.ReadSWFNamed(t, strings.NewReader(head+tc.records), "t.swf")
			tc.cfg.Machine = 64
			c, input, notes := annotated(t, hdr, jobs, tc.cfg, "header line")
			if !reflect.DeepEqual(input, tc.input) {
				t.Errorf("input lines\n%s\nwant\n%s", strings.Join(input, "\n"), strings.Join(tc.input, "\n"))
			}
			if w := c.Report(0).Warnings; !reflect.DeepEqual(w, tc.warnings) {
				t.Errorf("warnings\n%s\nwant\n%s", strings.Join(w, "\n"), strings.Join(tc.warnings, "\n"))
			}
			if !reflect.DeepEqual(notes, tc.notes) {
				t.Errorf("notes\n%s\nwant\n%s", strings.Join(notes, "\n"), strings.Join(tc.notes, "\n"))
			}
		})
	}
}

func mustFilter(t *testing.T, src string) *Filter {
	t.Helper()
	f, err := ParseFilter(src)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestMentionedKinds: which id kinds a header text names with a number.
func TestMentionedKinds(t *testing.T) {
	for _, tc := range []struct {
		text  string
		kinds string // anonKinds names, comma-separated
	}{
		{"user=4 and (job>=3874 and job<=5925) (2038 jobs removed)", "user"},
		{"users 3 and 7, uid 1042, User #9, user id 12", "user"},
		{"group 1 is normal users; GID=5", "group"},
		{"app=1 or exe==3; top 3 applications [12 7 44]; executable 5", "executable"},
		{"queue number 3, partition: 2", "queue,partition"},
		{"--priority-order lists queue(s) 3,7, in which no job is", "queue"},
		{"swfsim priority-order 5,0 (highest first; unknown queue (-1) last)", "queue"},
		{"priority order (highest first, from flag)=0,1+12,2", "queue"},
		{`swfaugment version=0.1.0 priority-order=0,1+12,2 filter="user=4"`, "user,queue"},
		{"128 users, 4 queues, partitions of 64 nodes", ""},
		{"MaxQueues: 3", ""},
		{"top-apps=10 input=/data/user4.swf", ""},
		{"the queue numbers in them are the input's, not those of the renumbered field 15; --set 'Queues=TEXT'", ""},
		{"swfsim priority-order: ascending queue number, unknown queue (-1) last", ""},
	} {
		t.Run(tc.text, func(t *testing.T) {
			var got []string
			for k, found := range mentionedKinds(tc.text) {
				if found {
					got = append(got, anonKinds[k].kind)
				}
			}
			if g := strings.Join(got, ","); g != tc.kinds {
				t.Errorf("kinds %q, want %q", g, tc.kinds)
			}
		})
	}
}
