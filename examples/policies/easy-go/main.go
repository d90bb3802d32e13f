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
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
)

// message is what the policy reads of the engine's messages; the arrivals'
// SWF fields and tokens are not needed by EASY and left undecoded.
type message struct {
	Type     string  `json:"type"`
	Protocol int     `json:"protocol"`
	Jobs     int     `json:"jobs"`
	Time     int64   `json:"time"`
	Free     int64   `json:"free"`
	Arrived  []job   `json:"arrived"`
	Ended    []event `json:"ended"`
	Killed   []event `json:"killed"`
}

type job struct {
	ID       int32 `json:"id"`
	Procs    int64 `json:"procs"`
	Estimate int64 `json:"estimate"`
}

type event struct {
	ID int32 `json:"id"`
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

func (e *easy) start(now int64, id int32) {
	j := e.jobs[id]
	r := run{end: now + j.Estimate, id: id, procs: j.Procs}
	e.planned[id] = r.end
	i, _ := slices.BinarySearchFunc(e.running, r, cmpRun)
	e.running = slices.Insert(e.running, i, r)
	e.started = append(e.started, id)
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
	for len(q) > 0 && e.jobs[q[0]].Procs <= free {
		e.start(now, q[0])
		free -= e.jobs[q[0]].Procs
		q = q[1:]
	}
	if e.fcfs || len(q) == 0 {
		e.queue = q
		return e.started
	}
	shadow, extra := e.shadow(now, free, e.jobs[q[0]].Procs)
	kept := q[:1]
	for _, id := range q[1:] {
		j := e.jobs[id]
		switch {
		case j.Procs <= free && j.Estimate <= shadow-now:
			e.start(now, id)
			free -= j.Procs
		case j.Procs <= free && j.Procs <= extra:
			e.start(now, id)
			free -= j.Procs
			extra -= j.Procs
		default:
			kept = append(kept, id)
		}
	}
	e.queue = kept
	return e.started
}

func serve(r io.Reader, w io.Writer, fcfs bool) error {
	in := bufio.NewReaderSize(r, 1<<16)
	out := bufio.NewWriter(w)
	e := &easy{fcfs: fcfs}
	var reply []byte
	for {
		line, err := in.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long := append([]byte(nil), line...)
			for err == bufio.ErrBufferFull {
				line, err = in.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err != nil {
			return fmt.Errorf("input ended before the final message: %v", err)
		}
		var m message
		if err := json.Unmarshal(line, &m); err != nil {
			return err
		}
		switch m.Type {
		case "hello":
			if m.Protocol != 1 {
				return fmt.Errorf("protocol %d, want 1", m.Protocol)
			}
			e.jobs = make([]job, m.Jobs)
			e.planned = make([]int64, m.Jobs)
			name := "easy-go: EASY backfilling, the rules of swfsim --policy easy"
			if fcfs {
				name = "easy-go -fcfs: first come first served, no backfilling"
			}
			reply = append(reply[:0], `{"protocol":1,"note":`...)
			reply = strconv.AppendQuote(reply, name)
			reply = append(reply, "}\n"...)
		case "round":
			for _, ev := range m.Ended {
				e.end(ev.ID)
			}
			for _, ev := range m.Killed {
				e.end(ev.ID)
			}
			for _, j := range m.Arrived {
				e.jobs[j.ID] = j
				e.queue = append(e.queue, j.ID)
			}
			reply = append(reply[:0], `{"start":[`...)
			for i, id := range e.schedule(m.Time, m.Free) {
				if i > 0 {
					reply = append(reply, ',')
				}
				reply = strconv.AppendInt(reply, int64(id), 10)
			}
			reply = append(reply, "]}\n"...)
		case "end":
			return nil
		default:
			return fmt.Errorf("unknown message type %q", m.Type)
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
	flag.Parse()
	if err := serve(os.Stdin, os.Stdout, *fcfs); err != nil {
		fmt.Fprintln(os.Stderr, "easy-go:", err)
		os.Exit(1)
	}
}
