package clean

import (
	"reflect"
	"strings"
	"testing"
)

// TestRenumberNotesNameInputNumbers: filters and flurries select jobs by
// the input's job numbers, before any rule runs. When rule renumber then
// gives the jobs written new numbers, each Note that names job numbers (a
// filter or keep on job or prev, a flurry's filter) says they are the
// input's, and so does its step in the Report; a Note naming none (a filter
// on users, keep prev=-1: -1 is no job's number) says nothing, nor does any
// Note when the numbers all stayed.
func TestRenumberNotesNameInputNumbers(t *testing.T) {
	const input = " (job numbers are the input's, before rule renumber)"
	for _, tc := range []struct {
		name    string
		rules   []string
		drop    []string
		notes   []string // this run's Notes on filters, keeps and flurries
		numbers []string // the Report's steps with JobNumbers "input"
	}{
		{"renumbered", []string{"flurries", "renumber"}, []string{"job<=10", "user=4 and submit<60000"},
			[]string{"swfclean filter job<=10: 10 jobs removed" + input, "swfclean filter user=4 and submit<60000: 18 jobs removed",
				"swfclean keep prev=-1: no jobs affected",
				"swfclean flurry user=9 and job>=502 and job<=801 (300 jobs removed; in its windows, 129600 s, 300 of 516 submissions, 58%, were the user's, first to last in 299 s; job numbers are the input's, before rule renumber)"},
			[]string{"filter job<=10"}},
		{"not renumbered", []string{"flurries"}, []string{"job<=10", "user=4 and submit<60000"},
			[]string{"swfclean filter job<=10: 10 jobs removed", "swfclean filter user=4 and submit<60000: 18 jobs removed",
				"swfclean keep prev=-1: no jobs affected",
				"swfclean flurry user=9 and job>=502 and job<=801 (300 jobs removed; in its windows, 129600 s, 300 of 516 submissions, 58%, were the user's, first to last in 299 s)"},
			nil},
		// Jobs 1..1300, none dropped: renumber gives every job its own number.
		{"numbers stay", []string{"renumber"}, []string{"job>5000"},
			[]string{"swfclean filter job>5000: no jobs affected", "swfclean keep prev=-1: no jobs affected"},
			nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hdr, jobs := readAll(t, flurryTrace(1000, 300))
			cfg := Config{Rules: tc.rules, Keep: []*Filter{mustFilter(t, "prev=-1")}}
			for _, d := range tc.drop {
				cfg.Drop = append(cfg.Drop, mustFilter(t, d))
			}
			c, err := New(hdr, cfg)
			if err != nil {
				t.Fatal(err)
			}
			c.ApplyAll(jobs)
			rep := c.Report(0)
			c.Annotate(hdr, rep)
			var notes, numbers []string
			for _, n := range hdr.GetAll("Note") {
				if strings.HasPrefix(n, "swfclean filter") || strings.HasPrefix(n, "swfclean keep") || strings.HasPrefix(n, "swfclean flurry") {
					notes = append(notes, n)
				}
			}
			for _, s := range rep.Steps {
				if s.JobNumbers == "input" {
					numbers = append(numbers, s.Name)
				} else if s.JobNumbers != "" {
					t.Errorf("step %s: job numbers %q", s.Name, s.JobNumbers)
				}
			}
			if !reflect.DeepEqual(notes, tc.notes) || !reflect.DeepEqual(numbers, tc.numbers) {
				t.Errorf("notes\n%s\nwant\n%s\nsteps naming input job numbers %q, want %q",
					strings.Join(notes, "\n"), strings.Join(tc.notes, "\n"), numbers, tc.numbers)
			}
		})
	}
}

// TestRenumberNoteOnEarlierNotes: the header's own Notes and Provenance
// lines (the archive's cleaning filters, an earlier run's) name jobs by the
// numbers renumber replaced, and cannot be rewritten; when renumber gave a
// job a new number and the header holds any, one Note right after
// renumber's counts says so. None without such lines, or when the numbers
// all stayed.
func TestRenumberNoteOnEarlierNotes(t *testing.T) {
	const earlier = "; Note: swfclean rule renumber: job numbers in the header's earlier Notes and Provenance lines " +
		"are the input's numbering, before this run's renumber (or an older one, where an earlier run renumbered)"
	const archive = "; Note: THIS IS A CLEANED VERSION OF THE LOG!\n" +
		";       The filters used to produce it were\n" +
		";         user=4 and (job>=3874 and job<=5925) (2038 jobs removed)\n"
	const renumbered = "10 0 0 10 1 -1 -1 1 -1 -1 1 4 1 -1 -1 -1 -1 -1\n" +
		"20 5 0 10 1 -1 -1 1 -1 -1 1 4 1 -1 -1 -1 -1 -1\n"
	const stay = "1 0 0 10 1 -1 -1 1 -1 -1 1 4 1 -1 -1 -1 -1 -1\n" +
		"2 5 0 10 1 -1 -1 1 -1 -1 1 4 1 -1 -1 -1 -1 -1\n"
	for _, tc := range []struct {
		name, header, body string
		rules              []string
		want               bool
	}{
		{"archive Note", archive, renumbered, []string{"renumber"}, true},
		{"Provenance", "; Provenance: swfclean filter=job<=14 rules=renumber\n", renumbered, []string{"renumber"}, true},
		{"a Note naming no job", "; Note: Scheduler is Slurm\n", renumbered, []string{"renumber", "anonymize"}, true},
		{"no Note", "; Computer: test\n", renumbered, []string{"renumber"}, false},
		{"numbers stay", archive, stay, []string{"renumber"}, false},
		{"no renumber", archive, renumbered, []string{"zero_to_unknown"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hdr, jobs := readAll(t, "; MaxProcs: 64\n"+tc.header+tc.body)
			c, err := New(hdr, Config{Rules: tc.rules})
			if err != nil {
				t.Fatal(err)
			}
			c.ApplyAll(jobs)
			c.Annotate(hdr, c.Report(0))
			var after string // the line after renumber's counts
			count := 0
			for i, l := range hdr.Lines {
				if strings.HasPrefix(l.Raw, "; Note: swfclean rule renumber: ") && i+1 < len(hdr.Lines) && after == "" {
					after = hdr.Lines[i+1].Raw
				}
				if l.Raw == earlier {
					count++
				}
			}
			if got := after == earlier; got != tc.want || count != map[bool]int{true: 1}[tc.want] {
				var all strings.Builder
				for _, l := range hdr.Lines {
					all.WriteString(l.Raw + "\n")
				}
				t.Errorf("Note on the earlier Notes: %v (%d), want %v; header:\n%s", got, count, tc.want, all.String())
			}
		})
	}
}
