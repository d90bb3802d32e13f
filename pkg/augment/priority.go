package augment

import (
	"slices"
	"strconv"
	"strings"

	"github.com/swfkit/swfkit/pkg/swf"
)

// Priorities maps the queue field (15) to priority ranks in Lee's normalisation
// (thesis 2.6.1): rank 0 is the highest priority, N-1 the lowest.
type Priorities struct {
	// Groups lists queue numbers from the highest priority to the lowest; queues
	// in one group share a rank.
	Groups [][]int64
	// Source says where the mapping came from, for the Note.
	Source string
	// Unused are the header's Queue-line queues in which no job is
	// (DefaultPriorities); Groups is empty when no job is in any.
	Unused []int64

	rank map[int64]int
}

// ParsePriorities parses a flag value "0,1+12,2" (highest first, '+' joins queues
// of equal priority).
func ParsePriorities(s string) (*Priorities, error) {
	groups, err := swf.ParseQueueOrder(s)
	if err != nil {
		return nil, err
	}
	return &Priorities{Source: "flag", Groups: groups}, nil
}

// DefaultPriorities builds the mapping used without a flag: one rank per queue
// listed in the header's Queue lines, else per distinct queue number >= 0 in
// the trace, in increasing queue number, the lowest number being the highest
// priority. The archive numbers the interactive queue 0, and interactive work
// is the most urgent on the machines it describes; a site's real order needs
// the flag. Lee's N_priorities (thesis 2.6.1) is "the number of priority
// choices available on the system", which the Queue lines declare, so a
// declared queue without jobs keeps its rank (listed in Unused). But when no
// job is in any declared queue (NASA-iPSC declares 0 and 1, every job has
// queue -1) the lines say nothing of these jobs' priorities: that is a trace
// without queue information, and the result has no groups (one rank for every
// job, values centred on globmax/2), as when no queue is known at all.
func DefaultPriorities(h *swf.Header, jobs []swf.Job) *Priorities {
	var s QueueSurvey
	for i := range jobs {
		s.Observe(&jobs[i])
	}
	return s.Priorities(h)
}

// QueueSurvey collects the distinct queue numbers of a trace, job by job,
// for DefaultPriorities over a trace that is streamed. Its zero value is
// ready to use.
type QueueSurvey struct {
	queues map[int64]bool
}

// Observe adds the next job of the trace.
func (s *QueueSurvey) Observe(j *swf.Job) {
	if q := j.Queue; q >= 0 {
		if s.queues == nil {
			s.queues = map[int64]bool{}
		}
		s.queues[q] = true
	}
}

// Priorities is DefaultPriorities over the jobs observed.
func (s *QueueSurvey) Priorities(h *swf.Header) *Priorities {
	var queues, unused []int64
	src := "header Queue lines"
	if h != nil && len(h.Queues()) > 0 {
		used := false
		for _, q := range h.Queues() {
			queues = append(queues, q.Number)
			if s.queues[q.Number] {
				used = true
			} else {
				unused = append(unused, q.Number)
			}
		}
		if !used {
			queues, src = nil, "header Queue lines, none with jobs"
		}
	} else {
		src = "queue numbers in the trace"
		for q := range s.queues {
			queues = append(queues, q)
		}
	}
	slices.Sort(queues)
	queues = slices.Compact(queues)
	slices.Sort(unused)
	p := &Priorities{Source: src + ", lowest number highest", Unused: slices.Compact(unused)}
	for _, q := range queues {
		p.Groups = append(p.Groups, []int64{q})
	}
	return p
}

// N returns the number of priority ranks (at least 1).
func (p *Priorities) N() int {
	return max(1, len(p.Groups))
}

// Rank returns the job's rank (0 highest) and whether its queue was listed.
// Unlisted queues, including -1, get the lowest rank.
func (p *Priorities) Rank(queue int64) (int, bool) {
	if p.rank == nil {
		p.rank = map[int64]int{}
		for r, g := range p.Groups {
			for _, q := range g {
				p.rank[q] = r
			}
		}
	}
	r, ok := p.rank[queue]
	if !ok {
		return p.N() - 1, false
	}
	return r, true
}

// String renders the order as the flag syntax, e.g. "0,1+12,2".
func (p *Priorities) String() string {
	var b strings.Builder
	for i, g := range p.Groups {
		if i > 0 {
			b.WriteByte(',')
		}
		for j, q := range g {
			if j > 0 {
				b.WriteByte('+')
			}
			b.WriteString(strconv.FormatInt(q, 10))
		}
	}
	if b.Len() == 0 {
		return "none (one rank for all jobs)"
	}
	return b.String()
}
