package policy

import (
	"slices"

	"github.com/swfkit/swfkit/pkg/sim"
)

// estOrder is the waiting queue of lxf and lxfw (orderedEASY with byEst),
// grouped by estimate. Their priorities grow with the wait, and two jobs of
// one estimate gain priority at the same rate, so within a class of equal
// estimates the order by priority is the arrival order, at any time (lxf:
// (W + E)/E for wait W; lxfw adds w W/3600; lxfwCompare gives the sign
// exactly). Only jobs of different estimates change places as time goes on,
// so a pass need not sort the whole queue: its front comes from the classes'
// first jobs, and its backfilling tries, in priority order, only the jobs
// that could start (easyPass's conditions with the free and extra processors
// it starts with, which only shrink), found by a walk over the classes'
// widths. It makes easyPass's decisions over the sorted queue
// (TestEstOrderMatchesSort).
type estOrder struct {
	classes []*estClass
	byEst   map[int64]*estClass
	cands   []estCand // a pass's backfill candidates
}

// estClass holds the waiting jobs of one estimate in arrival order, and the
// jobs that started since its last compaction (width -1 in procs).
type estClass struct {
	est   int64
	jobs  []*sim.Job
	procs []int32
	first int // no waiting job before it
	dead  int // started entries
}

// estCand is a job a pass may backfill, with its place in its class.
type estCand struct {
	key   float64
	j     *sim.Job
	class *estClass
	at    int
}

// add queues j (waiting, not queued) in its class at its arrival place.
func (q *estOrder) add(j *sim.Job) {
	if q.byEst == nil {
		q.byEst = map[int64]*estClass{}
	}
	c := q.byEst[j.Estimate]
	if c == nil {
		c = &estClass{est: j.Estimate}
		q.byEst[j.Estimate] = c
		q.classes = append(q.classes, c)
	}
	i := len(c.jobs)
	if i > 0 && arrivalCmp(c.jobs[i-1], j) > 0 { // back in the queue
		i, _ = slices.BinarySearchFunc(c.jobs, j, arrivalCmp)
		c.first = min(c.first, i)
	}
	c.jobs = slices.Insert(c.jobs, i, j)
	c.procs = slices.Insert(c.procs, i, j.Procs)
}

// started marks entry at of class c as started.
func (c *estClass) started(at int) {
	c.procs[at] = -1
	c.dead++
}

// tidy drops started entries from classes where they are half or more, and
// classes left empty.
func (q *estOrder) tidy() {
	k := 0
	for _, c := range q.classes {
		if 2*c.dead >= len(c.jobs) && c.dead > 0 {
			n := 0
			for i, p := range c.procs {
				if p >= 0 {
					c.jobs[n], c.procs[n] = c.jobs[i], p
					n++
				}
			}
			clear(c.jobs[n:])
			c.jobs, c.procs, c.first, c.dead = c.jobs[:n], c.procs[:n], 0, 0
		}
		if len(c.jobs) == 0 {
			delete(q.byEst, c.est)
			continue
		}
		q.classes[k] = c
		k++
	}
	clear(q.classes[k:])
	q.classes = q.classes[:k]
}

// head returns the class whose first waiting job comes first in the order
// at now, or nil when no job waits.
func (o *orderedEASY) head(now int64) *estClass {
	var best *estClass
	var bestKey float64
	for _, c := range o.est.classes {
		for c.first < len(c.jobs) && c.procs[c.first] < 0 {
			c.first++
		}
		if c.first == len(c.jobs) {
			continue
		}
		k := o.key(now, c.jobs[c.first])
		if best == nil || o.lessKeys(k, bestKey, c.jobs[c.first], best.jobs[best.first]) {
			best, bestKey = c, k
		}
	}
	return best
}

// estPass is easyPass over the order estOrder keeps.
func (o *orderedEASY) estPass(s *sim.Sim) {
	q := &o.est
	q.tidy()
	now := s.Now()
	free := s.FreeProcs()
	c := o.head(now)
	for c != nil && int64(c.jobs[c.first].Procs) <= free {
		free -= int64(c.jobs[c.first].Procs)
		o.startEst(s, c, c.first)
		c = o.head(now)
	}
	if c == nil || free < s.MinWaitingProcs() {
		return // nothing waiting fits in what is free
	}
	head := c.jobs[c.first]
	shadow, extra := ShadowTime(s, int64(head.Procs))
	minProcs := s.MinWaitingProcs()
	// The jobs that may backfill, in priority order: a merge of the
	// classes (each in priority order already) that takes from each its
	// next job that fits in free and either ends by the shadow or fits in
	// extra. free and extra only shrink as jobs start, so a job passed
	// over would not start later either; the merge stops once nothing
	// waiting fits.
	within := shadow - now
	h := q.cands[:0]
	for _, c := range q.classes {
		if x, ok := o.nextCand(c, c.first, now, free, extra, within, head); ok {
			h = o.push(h, x)
		}
	}
	for len(h) > 0 && free >= minProcs {
		x := h[0]
		h = o.pop(h)
		j := x.j
		// easyPass: a job that fits starts if it ends by the shadow or,
		// ending after it, fits in the extra processors, which it takes.
		if p := int64(j.Procs); p <= free && (j.Estimate <= within || p <= extra) {
			if j.Estimate > within {
				extra -= p
			}
			free -= p
			o.startEst(s, x.class, x.at)
		}
		if y, ok := o.nextCand(x.class, x.at+1, now, free, extra, within, head); ok {
			h = o.push(h, y)
		}
	}
	clear(h)
	q.cands = h[:0]
}

// startEst starts the job of entry at of class c.
func (o *orderedEASY) startEst(s *sim.Sim, c *estClass, at int) {
	j := c.jobs[at]
	s.Start(j)
	o.inOrder[j.ID] = false
	c.started(at)
}

// nextCand returns class c's first job from entry i on that may backfill:
// waiting, not the head, at most free wide, and at most extra wide unless
// it ends by the shadow (its estimate at most within).
func (o *orderedEASY) nextCand(c *estClass, i int, now, free, extra, within int64, head *sim.Job) (estCand, bool) {
	most := free
	if c.est > within {
		most = min(free, extra)
	}
	if most >= 1 {
		for ; i < len(c.procs); i++ {
			if p := int64(c.procs[i]); p >= 1 && p <= most && c.jobs[i] != head {
				return estCand{o.key(now, c.jobs[i]), c.jobs[i], c, i}, true
			}
		}
	}
	return estCand{}, false
}

// candLess orders backfill candidates by priority (orderedEASY.less).
func (o *orderedEASY) candLess(a, b *estCand) bool { return o.lessKeys(a.key, b.key, a.j, b.j) }

// push adds x to the heap h (its least first).
func (o *orderedEASY) push(h []estCand, x estCand) []estCand {
	h = append(h, x)
	for i := len(h) - 1; i > 0; {
		up := (i - 1) / 2
		if !o.candLess(&h[i], &h[up]) {
			break
		}
		h[i], h[up] = h[up], h[i]
		i = up
	}
	return h
}

// pop removes the least of the heap h.
func (o *orderedEASY) pop(h []estCand) []estCand {
	n := len(h) - 1
	h[0] = h[n]
	h[n] = estCand{}
	h = h[:n]
	for i := 0; ; {
		l, least := 2*i+1, i
		if l < n && o.candLess(&h[l], &h[least]) {
			least = l
		}
		if r := l + 1; r < n && o.candLess(&h[r], &h[least]) {
			least = r
		}
		if least == i {
			return h
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
}
