package policy

import "github.com/swfkit/swfkit/pkg/sim"

// startStream is the start feed (fairstart.go) of a conservative run going on
// in another goroutine: the run hands its starts over in batches, and the
// plays wait only when they need a start the run has not made yet.
type startStream struct {
	ch chan startBatch

	// The run's side.
	batch []startEvent

	// The plays' side.
	start   []int64 // every job's start once known, sim.Never before
	pending []startEvent
	out     []int32
	through int64 // every start at or before through is known
	done    bool
	err     error
}

type startEvent struct {
	id int32
	t  int64
}

// startBatch is what the run hands over: starts in time order, and that every
// start at or before through is made. The last batch has done set, and the
// run's error or panic.
type startBatch struct {
	ev      []startEvent
	through int64
	done    bool
	err     error
	panic   any
}

// streamBatch is the number of starts handed over at once: about a
// thousand channel operations on a trace of half a million jobs (tests
// make it small).
var streamBatch = 512

func newStartStream(n int) *startStream {
	f := &startStream{ch: make(chan startBatch, 64), start: make([]int64, n), through: -1 << 63}
	for i := range f.start {
		f.start[i] = sim.Never
	}
	return f
}

// started records a start (Conservative.started). The run's starts come in
// time order, so when one is made at t, every start before t is made.
func (f *startStream) started(j *sim.Job) {
	if len(f.batch) >= streamBatch {
		f.ch <- startBatch{ev: f.batch, through: j.Start - 1}
		f.batch = make([]startEvent, 0, streamBatch)
	}
	f.batch = append(f.batch, startEvent{j.ID, j.Start})
}

// produce runs the simulation and hands over its last batch, with its error
// or its panic (passed on to the plays' goroutine, which panics with it).
func (f *startStream) produce(s *sim.Sim, c sim.Policy) {
	last := startBatch{through: sim.Never, done: true}
	defer func() {
		last.panic = recover()
		last.ev = f.batch
		f.ch <- last
	}()
	last.err = s.Run(c)
}

// before implements startFeed.
func (f *startStream) before(t int64) []int32 {
	for !f.done && f.through < t-1 {
		f.receive()
	}
	if f.err != nil {
		return nil // the run failed: the plays finish on what they have
	}
	k := 0
	for k < len(f.pending) && f.pending[k].t < t {
		k++
	}
	f.out = f.out[:0]
	for _, e := range f.pending[:k] {
		f.out = append(f.out, e.id)
	}
	if k == len(f.pending) {
		f.pending = f.pending[:0]
	} else {
		f.pending = f.pending[k:]
	}
	return f.out
}

func (f *startStream) receive() {
	b := <-f.ch
	if b.panic != nil {
		panic(b.panic)
	}
	for _, e := range b.ev {
		f.start[e.id] = e.t
	}
	f.pending = append(f.pending, b.ev...)
	f.through = b.through
	if b.done {
		f.done, f.err = true, b.err
	}
}

// wait returns once the run has ended, with its error.
func (f *startStream) wait() error {
	for !f.done {
		f.receive()
	}
	return f.err
}

// FollowFairStarts makes the fair starts (FairStarts) of a conservative run
// while it goes on: p must be conservative backfilling's policy (as Lookup
// ("conservative") makes it), not yet run, and jobs the jobs it is about to
// run over with cfg. The strict-FCFS plays follow its starts in a second
// goroutine; call finish with the run's error once it has returned, to get
// the fair starts. ok is false, and nothing is started, for any other policy.
func FollowFairStarts(p sim.Policy, cfg sim.Config, jobs []sim.Job) (finish func(runErr error) ([]int64, error), ok bool) {
	c, ok := p.(*Conservative)
	if !ok || c.started != nil {
		return nil, false
	}
	feed := newStartStream(len(jobs))
	c.started = feed.started
	type result struct {
		fair []int64
		err  error
	}
	done := make(chan result, 1)
	// The plays read only the jobs' input fields, which the run does not
	// write; once played they take the rest of the run's starts, so that the
	// run never waits on a full channel.
	go func() {
		fair := fairStartsFed(cfg, jobs, feed.start, feed)
		err := feed.wait()
		done <- result{fair, err}
	}()
	return func(runErr error) ([]int64, error) {
		c.started = nil
		feed.ch <- startBatch{ev: feed.batch, through: sim.Never, done: true, err: runErr}
		r := <-done
		if r.err != nil {
			return nil, r.err
		}
		return r.fair, nil
	}, true
}
