package ga_test

import (
	"compress/gzip"
	"errors"
	"io"
	"math"
	"math/rand"
	"os"
	"strconv"
	"testing"

	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/augment"
	"github.com/swfkit/swfkit/pkg/ga"
	"github.com/swfkit/swfkit/pkg/swf"
	"github.com/swfkit/swfkit/pkg/utility"
)

// traceJob is a job of a real trace with what a snapshot needs.
type traceJob struct {
	submit, start, runtime, estimate int64 // start -1: unknown
	procs                            int
	ckpt                             int64 // checkpoint interval, 0: none
	u                                *utility.Func
}

// readTraceJobs reads the first n records of a shared trace, augmented in
// memory as swfaugment --utility --checkpoint --seed 7 would, and its
// machine size.
func readTraceJobs(t *testing.T, name string, n int) ([]traceJob, int) {
	t.Helper()
	f, err := os.Open(testutil.Trace(t, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	r := swf.NewReader(gz)
	h, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	machine, ok, err := h.MaxProcs()
	if err != nil || !ok {
		t.Fatalf("%s: no MaxProcs (%v)", name, err)
	}
	var recs []swf.Job
	for len(recs) < n {
		j, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, j)
	}
	if _, err := augment.GenerateUtility(recs, h, augment.UtilityConfig{}, augment.NewRand(7, augment.StreamUtility)); err != nil {
		t.Fatal(err)
	}
	if _, err := augment.Checkpoint(recs, augment.CheckpointConfig{}, augment.NewRand(7, augment.StreamCheckpoint)); err != nil {
		t.Fatal(err)
	}
	var jobs []traceJob
	for i := range recs {
		rec := &recs[i]
		procs, est := augment.Procs(rec), augment.RequestedTime(rec)
		tok, ok := rec.ExtraValue(utility.Key)
		if procs < 1 || procs > machine || est < 0 || !ok {
			continue
		}
		j := traceJob{submit: rec.SubmitTime, start: -1, runtime: rec.RunTime, estimate: est, procs: int(procs), u: &utility.Func{}}
		if err := j.u.Parse(tok); err != nil {
			t.Fatal(err)
		}
		if rec.WaitTime >= 0 && rec.RunTime >= 0 {
			j.start = rec.SubmitTime + rec.WaitTime
		}
		if s, ok := rec.ExtraValue("ckpt"); ok {
			if j.ckpt, err = strconv.ParseInt(s, 10, 64); err != nil {
				t.Fatal(err)
			}
		}
		jobs = append(jobs, j)
	}
	return jobs, int(machine)
}

// traceSnapshot is the plan of the logged schedule's state at now: the jobs
// running then (in the log) are Running, releasing at start + estimate, or
// one second from now if they have outlived it (docs/swfsim-ga.md step 1);
// the jobs submitted by now and started later in the log are waiting (the
// first maxWaiting of them). With ckpt, a running job with a checkpoint
// interval that started before now and has not outlived its estimate is a
// candidate (the first maxCandidates of them; the others stay running), with the restart estimate of docs/swfsim-ga.md (overhead 1 s
// per processor) and, with boost, its start value u(0) as Bonus. It
// returns nil when the log's running jobs overfill the machine.
func traceSnapshot(jobs []traceJob, machine int, now int64, maxWaiting, maxCandidates int, ckpt, boost bool) *ga.Plan {
	p := &ga.Plan{Now: now, Free: machine}
	var waiting []ga.PlanJob
	for _, j := range jobs {
		switch {
		case j.start < 0 || j.submit > now:
		case j.start <= now && now < j.start+j.runtime:
			end := j.start + j.estimate
			if ckpt && j.ckpt > 0 && j.start < now && end > now && maxCandidates > 0 {
				maxCandidates--
				ran := now - j.start
				saved := ran / j.ckpt * j.ckpt
				overhead := int64(math.Round(1 * float64(j.procs)))
				c := ga.PlanJob{Submit: j.submit, Procs: j.procs, Estimate: j.estimate - saved + overhead,
					Utility: j.u, Running: true, RunningEnd: end}
				if boost {
					c.Bonus = j.u.Value(0)
				}
				p.Jobs = append(p.Jobs, c)
			} else {
				p.Running = append(p.Running, ga.Release{End: max(end, now+1), Procs: j.procs})
			}
			p.Free -= j.procs
		case j.start > now && len(waiting) < maxWaiting:
			waiting = append(waiting, ga.PlanJob{Submit: j.submit, Procs: j.procs, Estimate: j.estimate, Utility: j.u})
		}
	}
	if p.Free < 0 || len(waiting) == 0 {
		return nil
	}
	p.Jobs = append(p.Jobs, waiting...)
	return p
}

// TestPlanReferenceTraces compares Plan with the reference on snapshots of
// real traces' logged schedules (the first 5,000 records of each, augmented
// with utilities and checkpoint intervals, seed 7): at the submit times of
// 30 jobs spread over each slice, the arrival ordering, its reverse and 10
// random orderings of up to 60 waiting jobs, with no candidates, with up to
// 12 candidates, and with them and boost. (NASA-iPSC and LLNL-Atlas are not
// used: their logs have no queue to snapshot.)
func TestPlanReferenceTraces(t *testing.T) {
	if testing.Short() {
		t.Skip("real traces: not with -short")
	}
	for _, name := range []string{
		"KTH-SP2-1996-2.1-cln.swf.gz",
		"LANL-CM5-1994-4.1-cln.swf.gz",
		"HPC2N-2002-2-first3170.swf.gz",
		"CEA-Curie-2011-sample.swf.gz",
		"RICC-2010-2.swf.gz",
	} {
		t.Run(name, func(t *testing.T) {
			jobs, machine := readTraceJobs(t, name, 5000)
			rng := rand.New(rand.NewSource(5))
			var counts refCounts
			plans, orders, candidates, maxJobs := 0, 0, 0, 0
			for k := 1; k <= 30; k++ {
				now := jobs[k*(len(jobs)-1)/31].submit
				for v, variant := range []struct{ ckpt, boost bool }{{false, false}, {true, false}, {true, true}} {
					p := traceSnapshot(jobs, machine, now, 60, 12, variant.ckpt, variant.boost)
					if p == nil {
						continue
					}
					p.Prepare(1)
					plans++
					maxJobs = max(maxJobs, len(p.Jobs))
					for _, j := range p.Jobs {
						candidates += b2i(j.Running && v == 1)
					}
					orderings(rng, len(p.Jobs), 10, func(order []int) {
						orders++
						if d := comparePlan(p, 1, order, &counts); d != "" {
							t.Fatalf("now %d, ckpt %v, boost %v, order %v: %s\n%s", now, variant.ckpt, variant.boost, order, d, describePlan(p))
						}
					})
				}
			}
			if plans == 0 {
				t.Fatal("no snapshot with a waiting job")
			}
			t.Logf("%d plans (up to %d jobs; %d candidates), %d orderings: %+v", plans, maxJobs, candidates, orders, counts)
		})
	}
}
