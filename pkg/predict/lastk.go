package predict

import "strconv"

// LastK predicts the average runtime of the user's K most recently terminated
// jobs, rounded down to whole seconds and capped at the job's estimate. Until a
// user has K terminated jobs, and for jobs whose user is unknown (-1), it
// predicts the estimate. LastK with K = 2 is the EASY++ predictor.
type LastK struct {
	k     int
	users map[int64]*history
}

// NewLastK returns a LastK predictor; it panics if k < 1.
func NewLastK(k int) *LastK {
	if k < 1 {
		panic("predict: LastK with k < 1")
	}
	return &LastK{k: k, users: make(map[int64]*history)}
}

// history is a ring of a user's last k runtimes and their sum.
type history struct {
	runtimes []int64
	next     int
	sum      int64
}

// Predict returns the average of the user's last K runtimes, capped at the estimate.
func (p *LastK) Predict(j Job) int64 {
	if j.User < 0 {
		return j.Estimate
	}
	return p.Of(j.User).Predict(j.Estimate)
}

// UserModel is what LastK predicts for one user's jobs at one time: the
// average of the user's last K runtimes, or the estimate until there are K.
// Two equal models predict the same for every job, so a caller that keeps
// predictions up to date (easy-p's --repredict) need not predict again
// when a user's job ends and the user's model stays equal.
type UserModel struct {
	mean int64
	full bool // the user has K runtimes: predict the mean
}

// Of returns the user's model now (user >= 0).
func (p *LastK) Of(user int64) UserModel {
	h := p.users[user]
	if h == nil || len(h.runtimes) < p.k {
		return UserModel{}
	}
	return UserModel{mean: h.sum / int64(p.k), full: true}
}

// Predict returns the prediction for a job of the model's user with the
// given estimate, as LastK.Predict would.
func (m UserModel) Predict(estimate int64) int64 {
	if !m.full {
		return estimate
	}
	return floor(min(m.mean, estimate), estimate)
}

// Terminated records the user's newest runtime.
func (p *LastK) Terminated(j Job, runtime int64) {
	if j.User < 0 {
		return
	}
	h := p.users[j.User]
	if h == nil {
		h = &history{runtimes: make([]int64, 0, min(p.k, 16))} // grows to k only for users with k jobs
		p.users[j.User] = h
	}
	if len(h.runtimes) < p.k {
		h.runtimes = append(h.runtimes, runtime)
		h.sum += runtime
		return
	}
	h.sum += runtime - h.runtimes[h.next]
	h.runtimes[h.next] = runtime
	h.next = (h.next + 1) % p.k
}

func (p *LastK) String() string {
	if p.k == 2 {
		return NameLast2
	}
	return NameLastK + ":" + strconv.Itoa(p.k)
}
