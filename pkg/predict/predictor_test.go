package predict

import (
	"slices"
	"strings"
	"testing"
)

func TestNew(t *testing.T) {
	for _, tc := range []struct {
		spec, name string
		wantErr    string
	}{
		{spec: "estimate", name: "estimate"},
		{spec: "exact", name: "exact"},
		{spec: "last2", name: "last2"},
		{spec: "lastk:2", name: "last2"},
		{spec: "lastk:1", name: "lastk:1"},
		{spec: "lastk:10", name: "lastk:10"},
		{spec: "token", name: "token"},
		{spec: "token:1", wantErr: "unknown predictor"},
		{spec: "lastk", wantErr: "unknown predictor"},
		{spec: "lastk:0", wantErr: "K from 1 to 1048576"},
		{spec: "lastk:x", wantErr: "K from 1 to 1048576"},
		{spec: "lastk:1048577", wantErr: "K from 1 to 1048576"},
		{spec: "lastk:9223372036854775807", wantErr: "K from 1 to 1048576"},
		{spec: "last2:3", wantErr: "unknown predictor"},
		{spec: "estimate:1", wantErr: "unknown predictor"},
		{spec: "", wantErr: "unknown predictor"},
		{spec: "Last2", wantErr: "unknown predictor"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			p, err := New(tc.spec)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("New(%q) error = %v, want one containing %q", tc.spec, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := p.String(); got != tc.name {
				t.Errorf("String() = %q, want %q", got, tc.name)
			}
		})
	}
}

// step is one event in a predictor scenario: a submission whose prediction is
// checked, or a termination.
type step struct {
	job        Job
	terminated bool
	runtime    int64 // for a termination
	want       int64 // for a submission
}

func submit(user, estimate, runtime, want int64) step {
	return step{job: Job{User: user, Estimate: estimate, Runtime: runtime, Given: -1}, want: want}
}

// given is a submission with a recorded prediction (the pred= token).
func given(estimate, runtime, pred, want int64) step {
	return step{job: Job{User: 1, Estimate: estimate, Runtime: runtime, Given: pred}, want: want}
}

func done(user, runtime int64) step {
	return step{job: Job{User: user}, terminated: true, runtime: runtime}
}

func TestPredictors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spec  string
		steps []step
	}{
		{"estimate ignores history", "estimate", []step{
			done(1, 10), done(1, 20),
			submit(1, 3600, 15, 3600),
			submit(2, 0, 0, 0),
		}},
		{"exact is the runtime", "exact", []step{
			submit(1, 3600, 15, 15),
			submit(1, 3600, 3600, 3600),
			submit(1, 100, 0, 1), // raised to 1 s
			submit(1, 0, 0, 0),   // nothing to raise it towards
		}},
		{"last2 needs two terminations of the same user", "last2", []step{
			submit(1, 1000, 5, 1000),
			done(1, 100),
			submit(1, 1000, 5, 1000),
			done(2, 300), // another user's job does not count
			submit(1, 1000, 5, 1000),
			done(1, 201),
			submit(1, 1000, 5, 150), // (100+201)/2 rounded down
			submit(2, 1000, 5, 1000),
			done(1, 50),
			submit(1, 1000, 5, 125), // the two most recent: 201, 50
			submit(1, 90, 5, 90),    // capped at the estimate
			done(1, 0), done(1, 0),
			submit(1, 1000, 0, 1), // never below 1 s
			submit(1, 0, 0, 0),    // unless the estimate is 0
		}},
		{"unknown users have no history", "last2", []step{
			done(-1, 10), done(-1, 10),
			submit(-1, 500, 10, 500),
		}},
		{"lastk:3 ring", "lastk:3", []step{
			done(7, 30), done(7, 60),
			submit(7, 1000, 1, 1000),
			done(7, 90),
			submit(7, 1000, 1, 60),
			done(7, 300), // drops 30: 60, 90, 300
			submit(7, 1000, 1, 150),
			done(7, 3), done(7, 3), // 300, 3, 3
			submit(7, 1000, 1, 102),
			done(7, 3), // 3, 3, 3
			submit(7, 1000, 1, 3),
		}},
		{"token is the recorded prediction", "token", []step{
			given(3600, 100, 50, 50),     // below the runtime: kept, a correction will raise it
			given(3600, 100, 7200, 3600), // capped at the estimate, the kill time
			given(3600, 100, 0, 1),       // never below 1 s
			given(0, 0, 0, 0),            // unless the estimate is 0
			submit(1, 900, 100, 900),     // no token: the estimate
			done(1, 10), done(1, 10),     // history is not used
			given(3600, 100, 2000, 2000),
		}},
		{"lastk:1 is the last runtime", "lastk:1", []step{
			submit(4, 700, 1, 700),
			done(4, 42),
			submit(4, 700, 1, 42),
			done(4, 7000),
			submit(4, 700, 1, 700),
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := New(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range tc.steps {
				if s.terminated {
					p.Terminated(s.job, s.runtime)
					continue
				}
				if got := p.Predict(s.job); got != s.want {
					t.Errorf("step %d: Predict(%+v) = %d, want %d", i, s.job, got, s.want)
				}
			}
		})
	}
}

func TestNewLastKPanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil {
			t.Error("NewLastK(0) did not panic")
		}
	}()
	NewLastK(0)
}

func BenchmarkLast2(b *testing.B) {
	p := NewLastK(2)
	b.ReportAllocs()
	for i := range b.N {
		j := Job{User: int64(i % 500), Estimate: 3600}
		p.Terminated(j, int64(i%3000))
		_ = p.Predict(j)
	}
}

// TestLastKUserModel checks that a user's model predicts what LastK.Predict
// does for every estimate, before and after each runtime, and that the model
// stays equal exactly when a new runtime leaves the mean as it was (easy-p's
// --repredict skips the user's jobs then).
func TestLastKUserModel(t *testing.T) {
	p := NewLastK(3)
	runtimes := []int64{100, 50, 0, 100, 50, 0, 7, 100, 100, 100, 250}
	estimates := []int64{0, 1, 30, 49, 50, 99, 100, 101, 1000}
	var equal []int
	for i, r := range runtimes {
		before := p.Of(5)
		p.Terminated(Job{User: 5}, r)
		m := p.Of(5)
		for _, est := range estimates {
			if got, want := m.Predict(est), p.Predict(Job{User: 5, Estimate: est}); got != want {
				t.Errorf("after %d runtimes, estimate %d: model predicts %d, Predict %d", i+1, est, got, want)
			}
		}
		changed := false
		for _, est := range estimates {
			changed = changed || before.Predict(est) != m.Predict(est)
		}
		if m == before {
			equal = append(equal, i+1)
			if changed {
				t.Errorf("after runtime %d (#%d): model equal but a prediction changed", r, i+1)
			}
		}
	}
	// Not full after the first two; full at the third (mean 50); the
	// fourth to sixth replace 100, 50, 0 by themselves (mean 50); every
	// later one moves the mean (19, 35, 69, 100, 150).
	if want := []int{1, 2, 4, 5, 6}; !slices.Equal(equal, want) {
		t.Errorf("model equal after runtimes %v, want %v", equal, want)
	}
	if p.Of(6) != (UserModel{}) {
		t.Errorf("user 6 has no history but model %+v", p.Of(6))
	}
}
