package clean

import (
	"fmt"

	"github.com/swfkit/swfkit/pkg/swf"
)

// SubmissionLabel is a header label the archive expects in a submitted log.
type SubmissionLabel struct {
	Label    string
	Required bool   // a log without it is not ready
	Why      string // what it tells the archive's readers
}

// SubmissionLabels are the labels of a log sent to the Parallel Workloads Archive,
// from the format's definition: the ones every archive log carries are required;
// Queues, Partitions and Note describe what a reader needs when there is such a
// thing to describe.
var SubmissionLabels = []SubmissionLabel{
	{"Version", true, "the SWF version (2.2)"},
	{"Computer", true, "the machine: vendor, model, processors"},
	{"Installation", true, "the site that ran it"},
	{"Acknowledge", true, "who provided the log, as users of the log should credit them"},
	{"Information", true, "where to learn more (a web page)"},
	{"Conversion", true, "who converted the log and with what"},
	{"MaxJobs", true, "the number of jobs"},
	{"MaxRecords", true, "the number of lines"},
	{"Preemption", true, "whether a job may span several lines"},
	{"UnixStartTime", true, "the Unix time of submit time 0"},
	{"TimeZoneString", true, "the site's time zone (IANA name)"},
	{"StartTime", true, "the log's start, as text"},
	{"EndTime", true, "the log's end, as text"},
	{"MaxNodes", true, "the machine's nodes"},
	{"MaxProcs", true, "the machine's processors"},
	{"Queues", false, "what the queue numbers mean (or Queue lines)"},
	{"Partitions", false, "what the partition numbers mean (or Partition lines)"},
	{"Note", false, "anything a reader must know (cleaning, conversion choices)"},
}

// LabelStatus is one SubmissionLabel and whether the header has it.
type LabelStatus struct {
	SubmissionLabel
	Present bool
	// LowerBound: present, but a Note says the value is only the most the
	// log's jobs show (swf.MachineLowerBound), not the machine's size.
	LowerBound bool
	// Malformed says why a present value is not one the format allows
	// (CheckHeaderValue: what --set refuses, --check flags as
	// header_malformed); "" when it is.
	Malformed string
	Value     string // the first value, "" when absent
}

// IDSequence is what a SubmissionChecker found about one kind of id (user or
// group): anonymized ids are 1..n in order of first appearance, as the archive's
// converter writes them.
type IDSequence struct {
	Kind     string
	Distinct int   // distinct known ids
	Largest  int64 // largest id
	// FirstOutOfOrder is the line of the first new id that was not the next
	// integer, 0 when every new id was.
	FirstOutOfOrder int
	OutOfOrderID    int64
}

// Anonymized reports whether the ids look anonymized: 1..n by first appearance
// (or no known ids at all).
func (s *IDSequence) Anonymized() bool { return s.FirstOutOfOrder == 0 }

// String says what the ids look like, for the report.
func (s *IDSequence) String() string {
	switch {
	case s.Distinct == 0:
		return fmt.Sprintf("%s ids: none known (-1)", s.Kind)
	case s.Anonymized():
		return fmt.Sprintf("%s ids: %d distinct, 1..%d by first appearance: look anonymized", s.Kind, s.Distinct, s.Largest)
	}
	return fmt.Sprintf("%s ids: %d distinct up to %d; line %d brings id %d out of order: not 1..n by first appearance, "+
		"may be real ids (swfclean --anonymize renumbers them)", s.Kind, s.Distinct, s.Largest, s.FirstOutOfOrder, s.OutOfOrderID)
}

type idSeq struct {
	IDSequence
	seen map[int64]bool
}

func (s *idSeq) add(id int64, line int) {
	if id < 0 || s.seen[id] {
		return
	}
	s.seen[id] = true
	s.Distinct++
	s.Largest = max(s.Largest, id)
	if id != int64(s.Distinct) && s.FirstOutOfOrder == 0 {
		s.FirstOutOfOrder, s.OutOfOrderID = line, id
	}
}

// SubmissionChecker collects, beside a Checker, what --check --submission adds:
// the archive's header labels and whether user and group ids look anonymized.
// Its memory is one map entry per distinct user and group.
type SubmissionChecker struct {
	hdr           *swf.Header
	users, groups idSeq
}

// NewSubmissionChecker returns a SubmissionChecker for a trace with this header.
func NewSubmissionChecker(hdr *swf.Header) *SubmissionChecker {
	if hdr == nil {
		hdr = &swf.Header{}
	}
	return &SubmissionChecker{hdr: hdr,
		users:  idSeq{IDSequence: IDSequence{Kind: "user"}, seen: map[int64]bool{}},
		groups: idSeq{IDSequence: IDSequence{Kind: "group"}, seen: map[int64]bool{}}}
}

// Add looks at one record.
func (s *SubmissionChecker) Add(j *swf.Job) {
	s.users.add(j.UserID, j.Line)
	s.groups.add(j.GroupID, j.Line)
}

// Submission is the readiness of a log for the archive.
type Submission struct {
	Labels         []LabelStatus
	Users, Groups  IDSequence
	MissingLabels  []string // required labels absent
	AbsentOptional []string
}

// Ready reports whether every required label is present, usable (not
// malformed) and not only a lower bound.
func (s *Submission) Ready() bool { return len(s.MissingLabels) == 0 }

// Result returns what was found.
func (s *SubmissionChecker) Result() *Submission {
	r := &Submission{Users: s.users.IDSequence, Groups: s.groups.IDSequence}
	for _, l := range SubmissionLabels {
		v, ok := s.hdr.Get(l.Label)
		if !ok {
			// Queue and Partition lines describe the numbers as well as the plural labels do.
			switch l.Label {
			case "Queues":
				v, ok = s.hdr.Get("Queue")
			case "Partitions":
				v, ok = s.hdr.Get("Partition")
			}
		}
		// A machine size a conversion wrote as the most its jobs show
		// (swf.MachineLowerBound) is not the machine's: the archive
		// needs the real one.
		bound := ok && (l.Label == "MaxProcs" || l.Label == "MaxNodes") && s.hdr.LowerBound(l.Label)
		var malformed string
		if ok {
			if err := CheckHeaderValue(l.Label, v); err != nil {
				malformed = err.Error()
			}
		}
		r.Labels = append(r.Labels, LabelStatus{SubmissionLabel: l, Present: ok, Value: v, LowerBound: bound, Malformed: malformed})
		switch {
		case malformed != "" && l.Required:
			r.MissingLabels = append(r.MissingLabels, l.Label+" (malformed)")
		case bound:
			r.MissingLabels = append(r.MissingLabels, l.Label+" (only a lower bound)")
		case !ok && l.Required:
			r.MissingLabels = append(r.MissingLabels, l.Label)
		case !ok:
			r.AbsentOptional = append(r.AbsentOptional, l.Label)
		}
	}
	return r
}
