// Command easy-go is EASY backfilling (or, with -fcfs, first come first
// served) as an external policy for swfsim, in Go with the standard library
// only:
//
//	go build -o easy-go ./examples/policies/easy-go
//	swfsim --policy exec --exec ./easy-go trace.swf
//
// It speaks protocol 1 of docs/swfsim-external.md on standard input and
// output and makes the same schedules as swfsim --policy easy and --policy
// fcfs (pkg/policy/easy.go, fcfs.go), so it follows their rules exactly:
//
//   - jobs start in arrival order while they fit in the free processors
//     (fcfs stops there);
//   - the first that does not fit (the head) gets the only reservation, at
//     its shadow time: walking the running jobs by (start + estimate, id),
//     the first end at which the head's processors are free; an end at or
//     before now (a job outliving its estimate under --no-kill) counts as
//     now + 1, and every job ending exactly at the shadow time counts towards
//     the extra processors (those free then beyond the head's need);
//   - each later job, in arrival order, that fits now starts if it ends by
//     the shadow time (now + estimate <= shadow), or else if it needs no more
//     than the extra processors, which it then uses up.
//
// The first rule is what start_head asks of the engine, so easy-go asks for
// it (unless -start-head=false): the engine starts the queue's head while it
// fits, and asks easy-go only when some job could still backfill. Each
// reply also names the running jobs whose end alone would change nothing
// (quiet_ends, unless -quiet-ends=false; not under --no-kill), so that such
// an end needs no message. Messages are parsed by hand (scan.go) into reused
// slices, so that a round costs no allocation, and standard input is polled
// briefly before each read sleeps (-spin, spin_linux.go); see the speed
// section of docs/swfsim-external.md.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"time"
)

type job struct {
	id       int32
	procs    int64
	estimate int64
}

// event is a start by the engine or an end: the job and when.
type event struct {
	id   int32
	time int64
}

// message is what easy-go reads of the engine's messages; the arrivals' SWF
// fields and tokens are not needed by EASY and skipped. The slices are
// reused from one message to the next.
type message struct {
	kind     []byte
	protocol int64
	noKill   bool
	jobs     int64
	time     int64
	free     int64
	supports [][]byte
	arrived  []job
	started  []event
	ended    []event
	killed   []event
}

// run is a running job as EASY sees it: its planned end is start + estimate.
type run struct {
	end   int64
	id    int32
	procs int64
}

type easy struct {
	fcfs    bool
	jobs    []job   // by id
	queue   []int32 // waiting jobs, arrival order
	running []run   // by (end, id)
	planned []int64 // by id: planned end of a running job
	started []int32
	quiet   []int32 // running jobs whose end alone would start nothing
	prefix  []int64 // quietEnds: running jobs' processors summed in end order
}

func cmpRun(a, b run) int {
	switch {
	case a.end != b.end:
		if a.end < b.end {
			return -1
		}
		return 1
	case a.id < b.id:
		return -1
	case a.id > b.id:
		return 1
	}
	return 0
}

func (e *easy) end(id int32) {
	i, ok := slices.BinarySearchFunc(e.running, run{end: e.planned[id], id: id}, cmpRun)
	if !ok {
		panic(fmt.Sprintf("easy-go: job %d ended but was not running", id))
	}
	e.running = slices.Delete(e.running, i, i+1)
}

// run adds a job started at now to the running jobs.
func (e *easy) run(now int64, id int32) {
	j := e.jobs[id]
	r := run{end: now + j.estimate, id: id, procs: j.procs}
	e.planned[id] = r.end
	i, _ := slices.BinarySearchFunc(e.running, r, cmpRun)
	e.running = slices.Insert(e.running, i, r)
}

func (e *easy) start(now int64, id int32) {
	e.run(now, id)
	e.started = append(e.started, id)
}

// begun records a start the engine made (start_head): the job was the
// first waiting one.
func (e *easy) begun(at int64, id int32) {
	if len(e.queue) > 0 && e.queue[0] == id {
		e.queue = e.queue[1:]
	} else if i := slices.Index(e.queue, id); i >= 0 {
		e.queue = slices.Delete(e.queue, i, i+1)
	} else {
		panic(fmt.Sprintf("easy-go: the engine started job %d, which was not waiting", id))
	}
	e.run(at, id)
}

// shadow returns the head's shadow time and the extra processors then.
func (e *easy) shadow(now, free, need int64) (int64, int64) {
	avail := free
	for k := 0; k < len(e.running); k++ {
		avail += e.running[k].procs
		if avail < need {
			continue
		}
		t := max(e.running[k].end, now+1)
		for k+1 < len(e.running) && max(e.running[k+1].end, now+1) == t {
			k++
			avail += e.running[k].procs
		}
		return t, avail - need
	}
	panic("easy-go: job wider than the machine")
}

// schedule is one round; it returns the jobs to start, in order.
func (e *easy) schedule(now, free int64) []int32 {
	e.started = e.started[:0]
	q := e.queue
	for len(q) > 0 && e.jobs[q[0]].procs <= free {
		e.start(now, q[0])
		free -= e.jobs[q[0]].procs
		q = q[1:]
	}
	if e.fcfs || len(q) == 0 {
		e.queue = q
		return e.started
	}
	shadow, extra := e.shadow(now, free, e.jobs[q[0]].procs)
	kept := q[:1]
	for _, id := range q[1:] {
		j := e.jobs[id]
		switch {
		case j.procs <= free && j.estimate <= shadow-now:
			e.start(now, id)
			free -= j.procs
		case j.procs <= free && j.procs <= extra:
			e.start(now, id)
			free -= j.procs
			extra -= j.procs
		default:
			kept = append(kept, id)
		}
	}
	e.queue = kept
	return e.started
}

// quietEnds returns the running jobs whose end, if it is the only event
// before the next round, would make easy start nothing (quiet_ends), given
// the queue and the free processors after this round's starts. Only without
// --no-kill: then every other running job still runs past that end (one
// that reached its planned end would have ended too), so no job's planned
// end is clamped to now+1 and the time of the end only makes backfilling
// by the shadow time harder. For each running job x: with its processors
// free, the head must still not fit, and no other waiting job may fit and
// end by the new shadow time (seen from now, the most room it can have) or
// fit in the new extra processors.
//
// A running job left out only costs a message, so the work is bounded: the
// shadow times come from prefix sums (a binary search each), and the running
// jobs that need a shadow time and a scan of the queue stop being named once
// that work adds up to as many queue entries as the queue and the running
// list hold together (on RICC, thousands of each, a full scan per running
// job made each reply cost milliseconds: 149 s for the whole trace, 6 s now).
func (e *easy) quietEnds(now, free int64) []int32 {
	e.quiet = e.quiet[:0]
	if len(e.queue) == 0 {
		return e.quiet
	}
	need := e.jobs[e.queue[0]].procs
	rest := e.queue[1:]
	minProcs := int64(math.MaxInt64)
	for _, id := range rest {
		minProcs = min(minProcs, e.jobs[id].procs)
	}
	e.prefix = e.prefix[:0]
	var sum int64
	for _, r := range e.running {
		sum += r.procs
		e.prefix = append(e.prefix, sum)
	}
	budget := len(rest) + len(e.running)
	for k, x := range e.running {
		f := free + x.procs
		if f >= need {
			continue // the head would start
		}
		if e.fcfs || f < minProcs {
			e.quiet = append(e.quiet, x.id)
			continue
		}
		if budget <= 0 {
			continue
		}
		budget -= shadowCost
		shadow, extra := e.shadowWithout(k, free, need)
		if minProcs <= extra {
			continue // a waiting job fits in the extra processors
		}
		quiet := true
		for _, id := range rest {
			budget--
			j := e.jobs[id]
			if j.procs <= f && j.estimate <= shadow-now {
				quiet = false
				break
			}
		}
		if quiet {
			e.quiet = append(e.quiet, x.id)
		}
	}
	return e.quiet
}

// shadowCost is what a shadowWithout call counts for in quietEnds' budget,
// against one queue entry looked at: two binary searches.
const shadowCost = 16

// shadowWithout is the head's shadow time and extra processors should the
// running job at index skip end now, freeing its processors (free excludes
// them; e.prefix holds the running jobs' processors summed in end order).
// The processors available once the job at index k ends are free plus
// prefix[k], plus skip's when k comes before it; every other job ending at
// the same time counts towards the extra processors.
func (e *easy) shadowWithout(skip int, free, need int64) (int64, int64) {
	x := e.running[skip].procs
	// The first k before skip with free + x + prefix[k] >= need, else the
	// first k after it with free + prefix[k] >= need.
	k := sort.Search(skip, func(i int) bool { return free+x+e.prefix[i] >= need })
	if k == skip {
		k = skip + 1 + sort.Search(len(e.running)-skip-1, func(i int) bool { return free+e.prefix[skip+1+i] >= need })
		if k == len(e.running) {
			panic("easy-go: job wider than the machine")
		}
	}
	t := e.running[k].end
	// The last job ending at t (skip's own processors are counted either way:
	// before g it is in prefix[g] and was added as x; after g, it is not).
	g := k
	for g+1 < len(e.running) && e.running[g+1].end == t {
		g++
	}
	avail := free + x + e.prefix[g]
	if skip <= g {
		avail -= x
	}
	return t, avail - need
}

// lines returns the input's lines one by one, each valid until the next.
type lines struct {
	in   *bufio.Reader
	long []byte
}

func (l *lines) next() ([]byte, error) {
	line, err := l.in.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		l.long = append(l.long[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = l.in.ReadSlice('\n')
			l.long = append(l.long, line...)
		}
		line = l.long
	}
	return line, err
}

func serve(r io.Reader, w io.Writer, fcfs, startHead, quietEnds bool) error {
	in := lines{in: bufio.NewReaderSize(r, 1<<16)}
	out := bufio.NewWriter(w)
	e := &easy{fcfs: fcfs}
	var m message
	var reply []byte
	for {
		line, err := in.next()
		if err != nil {
			return fmt.Errorf("input ended before the final message: %v", err)
		}
		if err := m.parse(line); err != nil {
			return err
		}
		switch string(m.kind) {
		case "hello":
			if m.protocol != 1 {
				return fmt.Errorf("protocol %d, want 1", m.protocol)
			}
			for _, want := range []struct {
				on        bool
				key, flag string
			}{{startHead, "start_head", "start-head"}, {quietEnds, "quiet_ends", "quiet-ends"}} {
				if want.on && !slices.ContainsFunc(m.supports, func(s []byte) bool { return string(s) == want.key }) {
					return fmt.Errorf("this swfsim does not support %s: use -%s=false", want.key, want.flag)
				}
			}
			// Under --no-kill a job can outlive its planned end, and from
			// then on it counts as ending at now+1 whatever the time: the
			// shadow time moves with the clock, which quietEnds leaves out.
			quietEnds = quietEnds && !m.noKill
			e.jobs = make([]job, m.jobs)
			e.planned = make([]int64, m.jobs)
			name := "easy-go: EASY backfilling, the rules of swfsim --policy easy"
			if fcfs {
				name = "easy-go -fcfs: first come first served, no backfilling"
			}
			reply = append(reply[:0], `{"protocol":1,"note":`...)
			reply = strconv.AppendQuote(reply, name)
			if startHead {
				reply = append(reply, `,"start_head":true`...)
			}
			reply = append(reply, "}\n"...)
		case "round":
			// Arrivals, then the engine's starts, then the ends: a job can
			// arrive, start and end between two messages.
			for _, j := range m.arrived {
				e.jobs[j.id] = j
				e.queue = append(e.queue, j.id)
			}
			for _, ev := range m.started {
				e.begun(ev.time, ev.id)
			}
			for _, ev := range m.ended {
				e.end(ev.id)
			}
			for _, ev := range m.killed {
				e.end(ev.id)
			}
			reply = append(reply[:0], `{"start":[`...)
			free := m.free
			for i, id := range e.schedule(m.time, m.free) {
				if i > 0 {
					reply = append(reply, ',')
				}
				reply = strconv.AppendInt(reply, int64(id), 10)
				free -= e.jobs[id].procs
			}
			reply = append(reply, ']')
			if quietEnds {
				reply = append(reply, `,"quiet_ends":[`...)
				for i, id := range e.quietEnds(m.time, free) {
					if i > 0 {
						reply = append(reply, ',')
					}
					reply = strconv.AppendInt(reply, int64(id), 10)
				}
				reply = append(reply, ']')
			}
			reply = append(reply, "}\n"...)
		case "end":
			return nil
		default:
			return fmt.Errorf("unknown message type %q", m.kind)
		}
		if _, err := out.Write(reply); err != nil {
			return err
		}
		if err := out.Flush(); err != nil {
			return err
		}
	}
}

func main() {
	fcfs := flag.Bool("fcfs", false, "first come first served: no backfilling")
	startHead := flag.Bool("start-head", true, "let the engine start the queue's head while it fits (start_head), so that only backfilling decisions come here")
	quietEnds := flag.Bool("quiet-ends", true, "name the running jobs whose end alone would start nothing (quiet_ends; not under --no-kill), so that such an end needs no message")
	spin := flag.Duration("spin", 200*time.Microsecond, "before each read that would sleep, poll standard input for up to this long (Linux; 0: never); a speed setting only")
	flag.Parse()
	if err := serve(spinning(*spin), os.Stdout, *fcfs, *startHead, *quietEnds); err != nil {
		fmt.Fprintln(os.Stderr, "easy-go:", err)
		os.Exit(1)
	}
}
