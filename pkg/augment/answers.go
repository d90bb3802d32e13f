package augment

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/swfkit/swfkit/pkg/swf"
)

// NoCheckpoint is the interval of an answer "the job does not checkpoint".
const NoCheckpoint = -1

// ReadAnswers reads known checkpoint answers, one per line: a job number and an
// interval in seconds, or "none" (also -1) for a job that does not checkpoint.
// Blank lines and lines starting with '#' or ';' are ignored. name is used in
// errors. An input with no line at all is an error: it is what a failed
// command before this one in a pipe leaves (producer | swfaugment
// --checkpoint-from - trace.swf), not a file of no answers.
func ReadAnswers(r io.Reader, name string) (map[int64]int64, error) {
	answers, _, err := ReadAnswersCut(r, name)
	return answers, err
}

// ReadAnswersCut is ReadAnswers that also returns the line number of the
// last answer when no newline follows it (0 when one does, or when the
// input ends in a comment or blank line): it is read, as hand-made files
// often lack the final newline, but it is also where a file cut short ends,
// and a cut inside the interval (600 to 60) leaves a number that parses, so
// callers warn.
func ReadAnswersCut(r io.Reader, name string) (answers map[int64]int64, cut int, err error) {
	answers = map[int64]int64{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	// open: the token the split returned last had no newline after it.
	open := false
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		advance, token, err := bufio.ScanLines(data, atEOF)
		if token != nil {
			open = advance == 0 || data[advance-1] != '\n'
		}
		return advance, token, err
	})
	lines := 0
	for line := 1; sc.Scan(); line++ {
		lines = line
		text := strings.TrimSpace(sc.Text())
		cut = 0
		if text == "" || text[0] == '#' || text[0] == ';' {
			continue
		}
		if open {
			cut = line
		}
		f := strings.Fields(text)
		if len(f) != 2 {
			return nil, 0, fmt.Errorf("%s:%d: want \"JOB INTERVAL\" (seconds, or none), got %q", name, line, text)
		}
		job, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return nil, 0, fmt.Errorf("%s:%d: job number %q is not an integer", name, line, f[0])
		}
		if job < 1 {
			// SWF job numbers start at 1: no job of a trace has it.
			return nil, 0, fmt.Errorf("%s:%d: job number %d: SWF job numbers start at 1", name, line, job)
		}
		var iv int64
		if strings.EqualFold(f[1], "none") || f[1] == "-1" {
			iv = NoCheckpoint
		} else if iv, err = strconv.ParseInt(f[1], 10, 64); err != nil || iv < 1 {
			return nil, 0, fmt.Errorf("%s:%d: interval %q is not a positive number of seconds or none", name, line, f[1])
		} else if iv > swf.MaxTime {
			// swfsim refuses a ckpt= token beyond the time bound: refuse it
			// here, where the file and line of the answer are known.
			return nil, 0, fmt.Errorf("%s:%d: interval %d s is beyond swfkit's time bound of %d s", name, line, iv, int64(swf.MaxTime))
		}
		if prev, dup := answers[job]; dup && prev != iv {
			return nil, 0, fmt.Errorf("%s:%d: job %d answered twice, differently", name, line, job)
		}
		answers[job] = iv
	}
	if err := sc.Err(); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", name, err)
	}
	if lines == 0 {
		return nil, 0, fmt.Errorf("%s: empty input (no line at all, not even a comment): did a command before this one fail?", name)
	}
	return answers, cut, nil
}

// AnswersReport is what CheckpointFrom did.
type AnswersReport struct {
	Expand      bool
	Answers     int // answers read
	NotInTrace  int // answers for job numbers absent from the trace
	Answered    int // jobs with an answer
	Expanded    int // jobs without an answer filled from their (user, processors) pool
	NoPool      int // jobs without an answer and nothing to pool from: no checkpointing
	Checkpoints int // jobs marked ckpt=
}

// Notes returns the header Note lines.
func (r *AnswersReport) Notes() []string {
	mode := "answers only; jobs without an answer do not checkpoint (Lee 6.6, first workload)"
	if r.Expand {
		mode = "expanded: a job without an answer takes a random answer of a job with the same user and processors, none if there is none (Lee 6.6, expanded workload)"
	}
	return []string{
		fmt.Sprintf("swfaugment checkpoint-from: %s", mode),
		fmt.Sprintf("swfaugment checkpoint-from: %d answers (%d for jobs not in the trace); %d jobs answered, %d filled from pools, %d without answer or pool; %d jobs checkpoint",
			r.Answers, r.NotInTrace, r.Answered, r.Expanded, r.NoPool, r.Checkpoints),
	}
}

type poolKey struct{ user, procs int64 }

// pooled reports whether j has a pool: a known user and processor count.
func pooled(j *swf.Job) bool { return j.UserID >= 0 && Procs(j) >= 1 }

// CheckpointFrom marks jobs from known answers (job number -> interval in
// seconds or NoCheckpoint). With expand, a job without an answer gets an answer
// drawn uniformly from the answered jobs with the same user and processors
// ("no" answers included); with nothing to pool from, or an unknown user or
// processor count (no "same user" to speak of), it does not checkpoint.
// Existing ckpt= tokens are replaced or removed.
func CheckpointFrom(jobs []swf.Job, answers map[int64]int64, expand bool, rng *rand.Rand) *AnswersReport {
	survey := NewAnswersSurvey(answers)
	for i := range jobs {
		survey.Observe(&jobs[i])
	}
	m := survey.Marker(expand, rng)
	for i := range jobs {
		m.Apply(&jobs[i])
	}
	return m.Report()
}

// AnswersSurvey is the first pass of CheckpointFrom over a trace streamed
// twice: it collects the pools of answers by user and processors, and which
// answers name a job of the trace. It keeps no more than the answers.
type AnswersSurvey struct {
	answers map[int64]int64
	pools   map[poolKey][]int64
	inTrace map[int64]bool // the answered job numbers seen
}

// NewAnswersSurvey returns the survey for known answers (job number ->
// interval in seconds or NoCheckpoint).
func NewAnswersSurvey(answers map[int64]int64) *AnswersSurvey {
	return &AnswersSurvey{answers: answers, pools: map[poolKey][]int64{}, inTrace: map[int64]bool{}}
}

// Observe adds the next job of the trace.
func (s *AnswersSurvey) Observe(j *swf.Job) {
	iv, ok := s.answers[j.JobNumber]
	if !ok {
		return
	}
	s.inTrace[j.JobNumber] = true
	if pooled(j) {
		k := poolKey{j.UserID, Procs(j)}
		s.pools[k] = append(s.pools[k], iv)
	}
}

// Marker returns the marker of CheckpointFrom for the jobs observed, to be
// applied to the same jobs in the same order.
func (s *AnswersSurvey) Marker(expand bool, rng *rand.Rand) *AnswersMarker {
	rep := &AnswersReport{Expand: expand, Answers: len(s.answers)}
	for job := range s.answers {
		if !s.inTrace[job] {
			rep.NotInTrace++
		}
	}
	return &AnswersMarker{answers: s.answers, pools: s.pools, expand: expand, rng: rng, rep: rep}
}

// AnswersMarker marks jobs from known answers job by job, in file order, as
// CheckpointFrom does.
type AnswersMarker struct {
	answers map[int64]int64
	pools   map[poolKey][]int64
	expand  bool
	rng     *rand.Rand
	rep     *AnswersReport
}

// Apply marks the next job of the trace with ckpt=S, or removes its ckpt=.
func (m *AnswersMarker) Apply(j *swf.Job) {
	rep := m.rep
	u := 0.0
	if m.expand {
		u = m.rng.Float64() // one draw per job, answered or not
	}
	iv, ok := m.answers[j.JobNumber]
	switch {
	case ok:
		rep.Answered++
	case m.expand && pooled(j) && len(m.pools[poolKey{j.UserID, Procs(j)}]) > 0:
		pool := m.pools[poolKey{j.UserID, Procs(j)}]
		iv = pool[int(u*float64(len(pool)))]
		rep.Expanded++
	default:
		iv = NoCheckpoint
		rep.NoPool++
	}
	if iv == NoCheckpoint {
		j.DeleteExtra(KeyCheckpoint)
		return
	}
	j.SetExtra(KeyCheckpoint, strconv.FormatInt(iv, 10))
	rep.Checkpoints++
}

// Report returns what the marker did to the jobs so far.
func (m *AnswersMarker) Report() *AnswersReport { return m.rep }
