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
	timer []sim.TimerID
	view  runView
	// byPred is SJBF's order: the waiting jobs by (prediction, submit,
	// ID), and the jobs that started since the last compaction (procs -1),
	// each under the key it was queued with. A waiting job's prediction
	// changes only in repredictUser, which queues it again, so its key is
	// its prediction; a started job's may be corrected (Timer), but its
	// entry keeps its place, so the order stays sorted and a binary search
	// finds any entry. The walk reads entries, not jobs.
	byPred []predEntry
	left   int // sjbf: started entries in byPred
	// repreds and moved are repredictUser's buffers.
	repreds []repred
	moved   []predEntry
	// waitingOf holds, with --repredict, each user's jobs in arrival
	// order from their arrival on, less those dropped once started
	// (repredictUser, Arrived): a user's jobs are predicted again
	// without a walk of the whole queue.
	waitingOf map[int32][]int32

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
		e.queueSJBF(j)
	}
	if e.repredict && j.User >= 0 {
		if e.waitingOf == nil {
			e.waitingOf = make(map[int32][]int32)
		}
		ids := e.waitingOf[j.User]
		if len(ids) == cap(ids) && len(ids) >= 16 {
			// A user whose model stays equal is not walked when a job
			// ends (Ended), so the started jobs leave here; when fewer
			// than half leave, the list doubles, so that a job is
			// looked at O(1) times on average.
			ids = dropStarted(s, ids)
			if 2*len(ids) > cap(ids) {
				ids = slices.Grow(ids, cap(ids))
			}
		}
		e.waitingOf[j.User] = append(ids, j.ID)
	}
}

// dropStarted returns ids without the jobs that are no longer waiting, in
// the same array.
func dropStarted(s *sim.Sim, ids []int32) []int32 {
	k := 0
	for _, id := range ids {
		if s.Job(id).State == sim.Waiting {
			ids[k] = id
			k++
		}
	}
	clear(ids[k:])
	return ids[:k]
}

// predEntry is a job in SJBF's order (PredictiveEASY.byPred).
type predEntry struct {
	pred, submit int64 // the key: prediction, then arrival (submit, ID)
	id, procs    int32 // procs -1: the job started
}

// shorter orders entries by prediction, then arrival (submit time, file
// order): a stable sort of the arrival-ordered queue by prediction.
func shorter(a, b predEntry) int {
	if c := cmp.Compare(a.pred, b.pred); c != 0 {
		return c
	}
	if c := cmp.Compare(a.submit, b.submit); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

// entry is j's entry in SJBF's order under its prediction now.
func (e *PredictiveEASY) entry(j *sim.Job) predEntry {
	return predEntry{pred: e.pred[j.ID], submit: j.Submit, id: j.ID, procs: j.Procs}
}

// queueSJBF puts a waiting job into SJBF's order.
func (e *PredictiveEASY) queueSJBF(j *sim.Job) {
	en := e.entry(j)
	i, _ := slices.BinarySearchFunc(e.byPred, en, shorter)
	e.byPred = slices.Insert(e.byPred, i, en)
}

// requeueSJBF moves the entry at i to where waiting job j's key puts it
// now, shifting only the entries between the two places.
func (e *PredictiveEASY) requeueSJBF(i int, j *sim.Job) {
	q, en := e.byPred, e.entry(j)
	// Entry i still has its old key, so q is sorted and k is where en
	// would go beside it; without it, that place is k-1 when k > i.
	k, _ := slices.BinarySearchFunc(q, en, shorter)
	if k > i {
		k--
		copy(q[i:k], q[i+1:k+1])
	} else {
		copy(q[k+1:i+1], q[k:i])
	}
	q[k] = en
}

// indexSJBF returns the index of waiting job j's entry in SJBF's order.
func (e *PredictiveEASY) indexSJBF(j *sim.Job) int {
	i, found := slices.BinarySearchFunc(e.byPred, e.entry(j), shorter)
	if !found || e.byPred[i].procs < 0 {
		panic("policy: easy++ waiting job missing from the SJBF order")
	}
	return i
}

// leftSJBF marks entry i as started.
func (e *PredictiveEASY) leftSJBF(i int) {
	e.byPred[i].procs = -1
	e.left++
}

// compactSJBF drops the started entries once they are half of SJBF's
// order (between passes: the walks hold indices).
func (e *PredictiveEASY) compactSJBF() {
	if 2*e.left > len(e.byPred) {
		e.byPred = slices.DeleteFunc(e.byPred, func(en predEntry) bool { return en.procs < 0 })
		e.left = 0
	}
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
	repredict := e.repredict && j.User >= 0
	var lastK *predict.LastK
	var before predict.UserModel
	if repredict {
		lastK = e.predictor.(*predict.LastK) // NewResearch allows --repredict only with it
		before = lastK.Of(int64(j.User))
	}
	e.predictor.Terminated(e.predictJob(s, j), ran)
	e.Accuracy.Add(e.first[j.ID], j.Estimate, ran)
	// Every waiting job of the user was predicted by the user's model
	// before this end (at its arrival, or here at the user's last end that
	// changed the model): when the model stays equal, no prediction
	// changes.
	if repredict {
		if m := lastK.Of(int64(j.User)); m != before {
			e.repredictUser(s, j.User, m)
		}
	}
}

// repredictUser recomputes the predictions of the user's waiting jobs by
// the user's model m after one of the user's jobs ended; SJBF's order
// follows the new predictions.
func (e *PredictiveEASY) repredictUser(s *sim.Sim, user int32, m predict.UserModel) {
	// A prediction reads the user's history, not the other predictions, so
	// the new ones are all made first and then applied. The user's jobs
	// that started leave the list here (a job of this family never goes
	// back to the queue: Ended panics on one).
	e.repreds = e.repreds[:0]
	ids := dropStarted(s, e.waitingOf[user])
	e.waitingOf[user] = ids
	for _, id := range ids {
		w := s.Job(id)
		if p := m.Predict(w.Estimate); p != e.pred[w.ID] {
			e.repreds = append(e.repreds, repred{w, p})
		}
	}
	switch {
	case !e.sjbf:
		for _, r := range e.repreds {
			e.pred[r.j.ID], e.first[r.j.ID] = r.pred, r.pred
		}
	case len(e.repreds) < bulkRequeue:
		for _, r := range e.repreds {
			i := e.indexSJBF(r.j)
			e.pred[r.j.ID], e.first[r.j.ID] = r.pred, r.pred
			e.requeueSJBF(i, r.j)
		}
	default:
		e.requeueAllSJBF()
	}
}

// repred is a waiting job's new prediction (repredictUser).
type repred struct {
	j    *sim.Job
	pred int64
}

// bulkRequeue is the fewest new predictions requeueAllSJBF takes at once: a
// user's bag of equal jobs gets one new prediction and moves as a block,
// which one requeue at a time would shift entry by entry.
const bulkRequeue = 4

// requeueAllSJBF applies e.repreds and puts their jobs where their new keys
// go in SJBF's order: their entries are dropped, and the new ones, sorted,
// merged with the rest (one pass over the order). The order it leaves is
// the one requeueSJBF job by job would: the entries sorted by key.
func (e *PredictiveEASY) requeueAllSJBF() {
	moved := e.moved[:0]
	for _, r := range e.repreds {
		e.pred[r.j.ID], e.first[r.j.ID] = r.pred, r.pred
		moved = append(moved, e.entry(r.j))
	}
	slices.SortFunc(moved, shorter)
	// The waiting entries whose key is no longer their job's prediction
	// are those just predicted again (started entries keep theirs).
	q := slices.DeleteFunc(e.byPred, func(en predEntry) bool { return en.procs >= 0 && en.pred != e.pred[en.id] })
	n := len(q)
	q = append(q, moved...)
	// Merge from the back: q[:n] and moved into q.
	i, k := n-1, len(moved)-1
	for at := len(q) - 1; k >= 0; at-- {
		if i >= 0 && shorter(q[i], moved[k]) > 0 {
			q[at] = q[i]
			i--
		} else {
			q[at] = moved[k]
			k--
		}
	}
	e.byPred, e.moved = q, moved
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
	if !e.sjbf {
		easyGeneral(s, e, s.Waiting(), s.FreeProcs(), &e.view)
		return
	}
	e.compactSJBF()
	if pass, ok := easyHead(s, e, s.Waiting(), s.FreeProcs(), &e.view); ok {
		e.backfillSJBF(s, pass)
	}
}

// backfillSJBF is easyGeneral's backfilling with the jobs after the head
// tried in SJBF's order, shortest prediction first. A job backfills if it
// ends by the head's reservation (now + prediction <= shadow) or fits in
// the extra processors; the order being by prediction, once one job does
// not end by the shadow no later one does, so the walk stops there if no
// extra processor is left.
func (e *PredictiveEASY) backfillSJBF(s *sim.Sim, pass headPass) {
	free, extra := pass.free, pass.extra
	within := pass.shadow - s.Now() // the longest prediction that ends by the shadow
	head := pass.head.ID
	for i := 0; i < len(e.byPred) && free > 0; i++ {
		en := e.byPred[i]
		p := int64(en.procs)
		// p-1 < free unsigned: 1 <= p <= free (a started entry has -1).
		if uint64(p-1) >= uint64(free) || en.id == head {
			continue
		}
		if en.pred > within {
			if extra == 0 {
				return
			}
			if p > extra {
				continue
			}
			extra -= p
		}
		e.leftSJBF(i)
		e.run(s, s.Job(en.id))
		free -= p
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
	if e.sjbf {
		e.leftSJBF(e.indexSJBF(j))
	}
	e.run(s, j)
}

// run starts j now.
func (e *PredictiveEASY) run(s *sim.Sim, j *sim.Job) {
	s.Start(j)
	e.view.add(j, j.Start+e.pred[j.ID])
	e.armCorrection(s, j)
}
