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
	h := p.users[j.User]
	if j.User < 0 || h == nil || len(h.runtimes) < p.k {
		return j.Estimate
	}
	return floor(min(h.sum/int64(p.k), j.Estimate), j.Estimate)
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
