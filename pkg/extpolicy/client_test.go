package extpolicy_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/swfkit/swfkit/pkg/extpolicy"
	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/swf"
)

// An in-process client of the protocol: fcfs or easy, written from the
// protocol's messages alone (no engine state), as an external program would
// be. The tests hold it to the built-in policies job for job; the benchmarks
// measure the protocol with it.

type msgJob struct {
	ID       int32 `json:"id"`
	Procs    int64 `json:"procs"`
	Estimate int64 `json:"estimate"`
}

type msgEvent struct {
	ID   int32 `json:"id"`
	Time int64 `json:"time"`
}

type message struct {
	Type    string     `json:"type"`
	Jobs    int        `json:"jobs"`
	Time    int64      `json:"time"`
	Free    int64      `json:"free"`
	Arrived []msgJob   `json:"arrived"`
	Started []msgEvent `json:"started"`
	Ended   []msgEvent `json:"ended"`
	Killed  []msgEvent `json:"killed"`
}

type running struct {
	end   int64 // start + estimate
	id    int32
	procs int64
}

type client struct {
	easy    bool
	jobs    []msgJob
	queue   []int32
	running []running // by (end, id)
	starts  []int32
}

func (c *client) remove(id int32) {
	for i, r := range c.running {
		if r.id == id {
			c.running = slices.Delete(c.running, i, i+1)
			return
		}
	}
	panic(fmt.Sprintf("client: job %d ended but was not running", id))
}

// begun records a start the engine made (start_head): the job leaves the
// queue, where it was the first waiting job, and runs from at.
func (c *client) begun(at int64, id int32) {
	if len(c.queue) == 0 || c.queue[0] != id {
		panic(fmt.Sprintf("client: the engine started job %d, not the queue's head", id))
	}
	c.queue = c.queue[1:]
	c.begin(at, id)
}

func (c *client) begin(now int64, id int32) {
	j := c.jobs[id]
	r := running{end: now + j.Estimate, id: id, procs: j.Procs}
	i, _ := slices.BinarySearchFunc(c.running, r, func(a, b running) int {
		if a.end != b.end {
			return int(a.end - b.end)
		}
		return int(a.id - b.id)
	})
	c.running = slices.Insert(c.running, i, r)
	c.starts = append(c.starts, id)
}

// decide is one pass of fcfs or easy (pkg/policy easyPass: start from the
// front while jobs fit; the head's shadow time from running jobs' start +
// estimate, at least now+1; backfill by the shadow time or into the extra
// processors).
func (c *client) decide(now, free int64) {
	c.starts = c.starts[:0]
	q := c.queue
	for len(q) > 0 && c.jobs[q[0]].Procs <= free {
		c.begin(now, q[0])
		free -= c.jobs[q[0]].Procs
		q = q[1:]
	}
	c.queue = q
	if !c.easy || len(q) == 0 {
		return
	}
	need := c.jobs[q[0]].Procs
	avail, shadow := free, int64(-1)
	for k := 0; k < len(c.running); k++ {
		avail += c.running[k].procs
		if avail < need {
			continue
		}
		shadow = max(c.running[k].end, now+1)
		for k+1 < len(c.running) && max(c.running[k+1].end, now+1) == shadow {
			k++
			avail += c.running[k].procs
		}
		break
	}
	extra := avail - need
	kept := q[:1]
	for _, id := range q[1:] {
		j := c.jobs[id]
		switch {
		case j.Procs > free:
			kept = append(kept, id)
		case j.Estimate <= shadow-now:
			c.begin(now, id)
			free -= j.Procs
		case j.Procs <= extra:
			c.begin(now, id)
			free -= j.Procs
			extra -= j.Procs
		default:
			kept = append(kept, id)
		}
	}
	c.queue = kept
}

// serve answers the engine on r and w until the final message.
// With startHead it asks the engine to start the queue's head while it fits
// (start_head).
func serve(r io.Reader, w io.Writer, easy, startHead bool, note string) error {
	in := bufio.NewReaderSize(r, 1<<16)
	out := bufio.NewWriter(w)
	c := &client{easy: easy}
	var reply []byte
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return fmt.Errorf("client: %v", err)
		}
		var m message
		if err := json.Unmarshal(line, &m); err != nil {
			return fmt.Errorf("client: %v", err)
		}
		switch m.Type {
		case "hello":
			c.jobs = make([]msgJob, m.Jobs)
			reply = append(reply[:0], `{"protocol":1,"note":`...)
			reply = strconv.AppendQuote(reply, note)
			if startHead {
				reply = append(reply, `,"start_head":true`...)
			}
			out.Write(append(reply, "}\n"...))
		case "round":
			for _, j := range m.Arrived {
				c.jobs[j.ID] = j
				c.queue = append(c.queue, j.ID)
			}
			for _, e := range m.Started {
				c.begun(e.Time, e.ID)
			}
			for _, e := range m.Ended {
				c.remove(e.ID)
			}
			for _, e := range m.Killed {
				c.remove(e.ID)
			}
			c.decide(m.Time, m.Free)
			reply = append(reply[:0], `{"start":[`...)
			for i, id := range c.starts {
				if i > 0 {
					reply = append(reply, ',')
				}
				reply = strconv.AppendInt(reply, int64(id), 10)
			}
			reply = append(reply, "]}\n"...)
			out.Write(reply)
		case "end":
			return out.Flush()
		default:
			return fmt.Errorf("client: unknown message type %q", m.Type)
		}
		if err := out.Flush(); err != nil {
			return err
		}
	}
}

// recordsOf builds the Records of simulation jobs (fields from the job).
func recordsOf(jobs []sim.Job) *extpolicy.Records {
	r := &extpolicy.Records{}
	for i, j := range jobs {
		sj := swf.Job{JobNumber: int64(i + 1), SubmitTime: j.Submit, WaitTime: -1, RunTime: j.Runtime,
			AllocatedProcs: int64(j.Procs), AverageCPUTime: -1, UsedMemory: -1, RequestedProcs: int64(j.Procs),
			RequestedTime: j.Estimate, RequestedMemory: -1, Status: 1, UserID: int64(j.User), GroupID: -1,
			Executable: -1, Queue: int64(j.Queue), Partition: -1, PrecedingJob: -1, ThinkTime: -1}
		r.Add(&sj)
	}
	return r
}

// runInProcess simulates jobs with the in-process client and returns the
// policy (after Finish) and the error of the run.
func runInProcess(procs int64, noKill bool, jobs []sim.Job, easy, startHead bool) (*extpolicy.Policy, error) {
	toClientR, toClientW := io.Pipe()
	fromClientR, fromClientW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := serve(toClientR, fromClientW, easy, startHead, "in-process test client")
		fromClientW.Close()
		io.Copy(io.Discard, toClientR)
		done <- err
	}()
	p := extpolicy.New(fromClientR, toClientW, extpolicy.Options{Records: recordsOf(jobs)})
	s, err := sim.New(sim.Config{Procs: procs, NoKill: noKill}, jobs)
	if err != nil {
		return nil, err
	}
	err = p.Finish(s, s.Run(p))
	if cerr := <-done; err == nil && cerr != nil {
		err = cerr
	}
	return p, err
}
