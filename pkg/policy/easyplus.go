package policy

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/swfkit/swfkit/pkg/predict"
	"github.com/swfkit/swfkit/pkg/sim"
)

// PredictiveEASY is the EASY++ family of Tsafrir, Etsion & Feitelson,
// "Backfilling using system-generated predictions rather than user runtime
// estimates" (IEEE TPDS 18(6), 2007), as ../shared/specs/easy-plus-plus.md
// describes it. It is EASY (easy.go) with three separable changes:
//
//   - Predictions (spec item 1-2): inside the scheduler a job's duration is a
//     prediction made at its submission by a pkg/predict Predictor: the head's
//     shadow time comes from running jobs' predicted ends (start + prediction)
//     and a job backfills if now + prediction <= shadow or it fits in the extra
//     processors. Jobs are still killed at their user estimate (field 9) by the
//     engine, so users see EASY's contract.
//   - Correction (item 3): when a running job reaches its predicted end and is
//     still running, a pkg/predict Corrector raises its prediction (a timer at
//     the predicted end; the end of a job completing at that very second is
//     handled first) and the next pass recomputes the head's reservation.
//   - SJBF (item 4): jobs after the head are tried in increasing order of
//     prediction, ties in arrival order; the head keeps its reservation.
//
// The registered variants: easy-p (predictions and correction, arrival-order
// backfilling; default predictor last2), sjbf (SJBF with user estimates,
// default predictor estimate) and easy++ (last2, correction and SJBF). Choices:
//   - the default corrector is "estimate" (jump to the user estimate), the
//     simplest scheme the spec lists; --corrector ladder|double select the others;
//   - a predictor learns a job's runtime when it ends, as the simulation ran it
//     (after any kill at the estimate); predictions never exceed the estimate
//     (except the exact oracle under --no-kill) and are at least 1 s when the
//     estimate is (pkg/predict);
//   - a job that has outlived both its prediction and its estimate (only with
//     --no-kill) is expected to end one second from now, as in easy;
//   - the shadow time and extra processors are computed once per pass, as easy;
//   - a prediction is made once, when the job is submitted (spec item 2), and
//     changes only by correction once the job runs. With --repredict
//     (Repredict), the predictions of a user's waiting jobs are recomputed
//     whenever a job of that user ends, so a job that waited sees the
//     runtimes of the user's jobs that ended meanwhile (pyss's EASY++ does
//     this; its tests plus_plus_easy.10 and .11 expect it);
//   - the predictor "token" predicts the pred= value recorded on the job's
//     input line (swfaugment --as-prediction), capped at the estimate.
//
// Degenerate cases: with the predictor "estimate" and no SJBF, every
// prediction is the estimate, no correction ever fires and the decisions are
// easy's, job for job. With SJBF and all estimates equal, the stable sort keeps
// arrival order, so sjbf equals easy.
type PredictiveEASY struct {
	sim.Base
	predictor predict.Predictor
	corrector predict.Corrector
	sjbf      bool
	repredict bool    // recompute a user's waiting predictions when one of the user's jobs ends
	given     []int64 // per job ID: the pred= token (-1: none); nil: no job has one

	pred      []int64 // per job ID: current prediction
	first     []int64 // per job ID: prediction the job started with (before corrections)
	corrected []bool  // per job ID: corrected at least once
	// timer is, per job ID, the correction timer set at the running job's
	// predicted end (0: none): Ended cancels it, so that no pass runs at the
	// predicted end of a job that has already ended.
	timer   []sim.TimerID
	view    runView
	byPred  []*sim.Job // sjbf: waiting jobs by (prediction, submit, ID), and started ones until compacted
	started bool       // sjbf: a job of byPred started since the last compaction

	// Accuracy holds prediction accuracy and correction counts, complete after
	// the run.
	Accuracy predict.Accuracy
}

// NewPredictiveEASY returns the family member with the given predictor,
// corrector and SJBF setting for n jobs.
func NewPredictiveEASY(pr predict.Predictor, c predict.Corrector, sjbf bool, n int) *PredictiveEASY {
	return &PredictiveEASY{
		predictor: pr, corrector: c, sjbf: sjbf,
		pred: make([]int64, n), first: make([]int64, n), corrected: make([]bool, n), timer: make([]sim.TimerID, n),
	}
}

// Note describes the options and the accuracy of the predictions, for the
// output header.
func (e *PredictiveEASY) Note() string {
	re := ""
	if e.repredict {
		re = ", repredict"
	}
	if e.given != nil {
		missing := 0
		for _, g := range e.given {
			if g < 0 {
				missing++
			}
		}
		re += fmt.Sprintf(", %d jobs without pred= predicted their estimate", missing)
	}
	return fmt.Sprintf("predictor %s, corrector %s, sjbf %v%s; %s", e.predictor, e.corrector, e.sjbf, re, &e.Accuracy)
}

func (e *PredictiveEASY) predictJob(s *sim.Sim, j *sim.Job) predict.Job {
	run := j.Runtime
	if !s.NoKill() && run > j.Estimate {
		run = j.Estimate
	}
	given := int64(-1)
	if e.given != nil {
		given = e.given[j.ID]
	}
	return predict.Job{User: int64(j.User), Estimate: j.Estimate, Runtime: run, Given: given}
}

// Arrived predicts the job's runtime.
func (e *PredictiveEASY) Arrived(s *sim.Sim, j *sim.Job) {
	p := e.predictor.Predict(e.predictJob(s, j))
	e.pred[j.ID], e.first[j.ID] = p, p
	if e.sjbf {
		// A job started since the last pass may have had its prediction
		// corrected, so byPred is sorted only without it.
		e.compactSJBF()
		i, _ := slices.BinarySearchFunc(e.byPred, j, e.shorter)
		e.byPred = slices.Insert(e.byPred, i, j)
	}
}

// shorter orders jobs by prediction, then arrival (submit time, file order):
// a stable sort of the arrival-ordered queue by prediction.
func (e *PredictiveEASY) shorter(a, b *sim.Job) int {
	if c := cmp.Compare(e.pred[a.ID], e.pred[b.ID]); c != 0 {
		return c
	}
	return arrivalCmp(a, b)
}

// Ended teaches the predictor the runtime and records the accuracy.
func (e *PredictiveEASY) Ended(s *sim.Sim, j *sim.Job, why sim.EndReason) {
	if id := e.timer[j.ID]; id != 0 {
		// A pass at the predicted end of a job that has ended would be a
		// scheduling point of its own, where EASY has none: with --no-kill
		// it moves the shadow of jobs past their estimate (now+1).
		s.CancelTimer(id)
		e.timer[j.ID] = 0
	}
	e.view.remove(j, j.Start+e.pred[j.ID])
	if j.State != sim.Done {
		panic("policy: easy++ job ended without finishing: " + why.String())
	}
	ran := j.End - j.Start
	e.predictor.Terminated(e.predictJob(s, j), ran)
	e.Accuracy.Add(e.first[j.ID], j.Estimate, ran)
	if e.repredict && j.User >= 0 {
		e.repredictUser(s, j.User)
	}
}

// repredictUser recomputes the predictions of the user's waiting jobs after
// one of the user's jobs ended; SJBF's order follows the new predictions.
func (e *PredictiveEASY) repredictUser(s *sim.Sim, user int32) {
	// Jobs started in the last pass may still be in byPred, their
	// predictions corrected since: drop them so that byPred is sorted.
	e.compactSJBF()
	for _, w := range s.Waiting() {
		if w.User != user || w.State != sim.Waiting {
			continue
		}
		p := e.predictor.Predict(e.predictJob(s, w))
		if p == e.pred[w.ID] {
			continue
		}
		if e.sjbf {
			// A linear search: byPred need not be sorted. A started job
			// stays in it until a pass compacts it (a pass with no free
			// processor does not), its prediction may be corrected
			// meanwhile, and Arrived's binary search then places new jobs
			// against an out-of-order neighbour.
			i := slices.Index(e.byPred, w)
			if i < 0 {
				panic("policy: easy++ waiting job missing from the SJBF order")
			}
			e.byPred = slices.Delete(e.byPred, i, i+1)
		}
		e.pred[w.ID], e.first[w.ID] = p, p
		if e.sjbf {
			i, _ := slices.BinarySearchFunc(e.byPred, w, e.shorter)
			e.byPred = slices.Insert(e.byPred, i, w)
		}
	}
}

// Timer corrects the prediction of a job still running at its predicted end.
func (e *PredictiveEASY) Timer(s *sim.Sim, _ sim.TimerID, tag int64) {
	j := s.Job(int32(tag))
	e.timer[j.ID] = 0
	old := e.pred[j.ID]
	now := s.Now()
	if j.State != sim.Running || j.Start+old != now {
		return
	}
	p, ok := e.corrector.Correct(now-j.Start, j.Estimate)
	if !ok {
		return // past its estimate (--no-kill): expected to end at any moment
	}
	e.Accuracy.Corrected(!e.corrected[j.ID])
	e.corrected[j.ID] = true
	e.view.remove(j, j.Start+old)
	e.pred[j.ID] = p
	e.view.add(j, j.Start+p)
	e.armCorrection(s, j)
}

// armCorrection sets a timer at j's predicted end if the job may outlive it.
func (e *PredictiveEASY) armCorrection(s *sim.Sim, j *sim.Job) {
	if e.pred[j.ID] < j.Estimate {
		e.timer[j.ID] = s.SetTimer(j.Start+e.pred[j.ID], int64(j.ID))
	}
}

// Schedule runs one EASY pass with predictions.
func (e *PredictiveEASY) Schedule(s *sim.Sim) {
	if s.FreeProcs() == 0 {
		return // nothing can start
	}
	var backfill []*sim.Job
	if e.sjbf {
		e.compactSJBF()
		backfill = e.byPred
	}
	easyGeneral(s, e, s.Waiting(), s.FreeProcs(), &e.view, backfill)
}

// compactSJBF drops the jobs that started since the last compaction from byPred.
func (e *PredictiveEASY) compactSJBF() {
	if e.started {
		e.byPred = slices.DeleteFunc(e.byPred, func(j *sim.Job) bool { return j.State != sim.Waiting })
		e.started = false
	}
}

func (e *PredictiveEASY) candidate(j *sim.Job) candidacy {
	if j.State != sim.Waiting {
		return candSkip
	}
	return candReady
}

func (e *PredictiveEASY) runFor(_ *sim.Sim, j *sim.Job) int64 { return e.pred[j.ID] }

func (e *PredictiveEASY) notBefore(s *sim.Sim, _ *sim.Job) int64 { return s.Now() }

func (e *PredictiveEASY) begin(s *sim.Sim, j *sim.Job) {
	s.Start(j)
	e.started = true
	e.view.add(j, j.Start+e.pred[j.ID])
	e.armCorrection(s, j)
}
