//go:build unix

package extpolicy_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/extpolicy"
	"github.com/swfkit/swfkit/pkg/sim"
)

// runScripted simulates jobs on procs processors with an in-process client
// that answers each engine message (decoded) with respond's line; respond is
// not called for the final message. It returns the messages the client got.
func runScripted(t *testing.T, procs int64, jobs []sim.Job, respond func(m map[string]any) string) ([]map[string]any, *extpolicy.Policy, error) {
	t.Helper()
	toClientR, toClientW := io.Pipe()
	fromClientR, fromClientW := io.Pipe()
	var got []map[string]any
	done := make(chan error, 1)
	go func() {
		defer fromClientW.Close()
		in := bufio.NewReader(toClientR)
		for {
			line, err := in.ReadBytes('\n')
			if err != nil {
				done <- fmt.Errorf("client: %v", err)
				return
			}
			var m map[string]any
			if err := json.Unmarshal(line, &m); err != nil {
				done <- err
				return
			}
			got = append(got, m)
			if m["type"] == "end" {
				done <- nil
				return
			}
			if _, err := io.WriteString(fromClientW, respond(m)+"\n"); err != nil {
				done <- nil // the engine stopped listening (a failure under test)
				io.Copy(io.Discard, toClientR)
				return
			}
		}
	}()
	p := extpolicy.New(fromClientR, toClientW, extpolicy.Options{Records: recordsOf(jobs)})
	s, err := sim.New(sim.Config{Procs: procs}, jobs)
	if err != nil {
		t.Fatal(err)
	}
	err = p.Finish(s, s.Run(p))
	if cerr := <-done; err == nil && cerr != nil {
		t.Fatal(cerr)
	}
	return got, p, err
}

func num(m map[string]any, key string) int64 { return int64(m[key].(float64)) }

// A timer delays job 0 to time 3; a round in which nothing fits is not sent
// and its end comes with the next message, with its time:
//
//	0  jobs 0 (2 procs) and 1 (4) arrive; the reply starts nothing, timer 3
//	3  timer: start 0 (runs to 13)
//	5  job 2 arrives (1 proc, 2 free): start 2 (runs to 10)
//	10 job 2 ends: 2 free, job 1 needs 4: no message
//	13 job 0 ends: message with both ends; start 1 (runs to 18)
//	18 job 1 ends, nothing waits: no message; the final message has its end
func TestTimerAndSkippedRounds(t *testing.T) {
	jobs := tinyJobs()
	msgs, p, err := runScripted(t, 4, jobs, func(m map[string]any) string {
		switch {
		case m["type"] == "hello":
			return `{"protocol":1}`
		case num(m, "time") == 0:
			return `{"start":[],"timer":3}`
		case num(m, "time") == 3:
			return `{"start":[0]}`
		case num(m, "time") == 5:
			return `{"start":[2]}`
		}
		return `{"start":[1]}`
	})
	if err != nil {
		t.Fatal(err)
	}
	var times, timers []int64
	for _, m := range msgs[1 : len(msgs)-1] {
		times = append(times, num(m, "time"))
		timers = append(timers, num(m, "timer"))
	}
	if fmt.Sprint(times) != "[0 3 5 13]" || fmt.Sprint(timers) != "[-1 3 -1 -1]" {
		t.Errorf("rounds at %v with timers %v, want [0 3 5 13] and [-1 3 -1 -1]", times, timers)
	}
	ended, _ := json.Marshal(msgs[4]["ended"])
	if string(ended) != `[{"id":2,"time":10},{"id":0,"time":13}]` {
		t.Errorf("round at 13: ended %s", ended)
	}
	end := msgs[len(msgs)-1]
	endJSON, _ := json.Marshal(end)
	// Waits: 3 + 13 + 0.
	const want = `{"ended":[{"id":1,"time":18}],"killed":[],"time":18,"totals":{"completed":3,"engine_rounds":6,"jobs":3,"killed":0,"last_end":18,"rounds":4,"wait_sum":16},"type":"end"}`
	if string(endJSON) != want {
		t.Errorf("final message\n%s\nwant\n%s", endJSON, want)
	}
	if jobs[0].Start != 3 || jobs[1].Start != 13 || jobs[2].Start != 5 {
		t.Errorf("starts %d %d %d, want 3 13 5", jobs[0].Start, jobs[1].Start, jobs[2].Start)
	}
	if p.Rounds() != 4 {
		t.Errorf("Rounds() = %d", p.Rounds())
	}
}

// "every_round": every scheduling round gets a message, also those in which
// nothing fits or nothing waits (10 and 18 above).
func TestEveryRound(t *testing.T) {
	msgs, _, err := runScripted(t, 4, tinyJobs(), func(m map[string]any) string {
		switch {
		case m["type"] == "hello":
			return `{"protocol":1,"every_round":true}`
		case num(m, "time") == 0:
			return `{"start":[],"timer":3}`
		case num(m, "time") == 3:
			return `{"start":[0]}`
		case num(m, "time") == 5:
			return `{"start":[2]}`
		case num(m, "time") == 13:
			return `{"start":[1]}`
		}
		return `{"start":[]}`
	})
	if err != nil {
		t.Fatal(err)
	}
	var times []int64
	for _, m := range msgs[1 : len(msgs)-1] {
		times = append(times, num(m, "time"))
	}
	if fmt.Sprint(times) != "[0 3 5 10 13 18]" {
		t.Errorf("rounds at %v, want [0 3 5 10 13 18]", times)
	}
}

// A program that asks for every round and always keeps a timer set (a
// periodic scheduler) gets the final message once every job has ended, at
// the last end: the timer still set does not keep the run going.
func TestEveryRoundTimerEndsWithTheJobs(t *testing.T) {
	msgs, _, err := runScripted(t, 4, tinyJobs(), func(m map[string]any) string {
		if m["type"] == "hello" {
			return `{"protocol":1,"every_round":true}`
		}
		var start []int
		switch num(m, "time") {
		case 0:
			start = []int{0}
		case 10:
			start = []int{1}
		case 15:
			start = []int{2}
		}
		b, _ := json.Marshal(start)
		// A timer far ahead: a run kept going by it reaches swfkit's time
		// bound in about a hundred rounds and fails, instead of hanging.
		return fmt.Sprintf(`{"start":%s,"timer":%d}`, b, num(m, "time")+10_000_000_000)
	})
	if err != nil {
		t.Fatal(err)
	}
	var times []int64
	for _, m := range msgs[1 : len(msgs)-1] {
		times = append(times, num(m, "time"))
	}
	last := msgs[len(msgs)-1]
	if fmt.Sprint(times) != "[0 5 10 15 20]" || last["type"] != "end" || num(last, "time") != 20 {
		t.Errorf("rounds at %v, then %v; want [0 5 10 15 20], then end at 20", times, last)
	}
}

// A program that only ever asks for another timer while jobs wait on an
// empty machine with nothing to arrive is stopped after MaxIdleRounds
// rounds: from time 5 (the last arrival), one a second.
func TestIdleTimersAreADeadlock(t *testing.T) {
	_, _, err := runScripted(t, 4, tinyJobs(), func(m map[string]any) string {
		if m["type"] == "hello" {
			return `{"protocol":1}`
		}
		return fmt.Sprintf(`{"start":[],"timer":%d}`, num(m, "time")+1)
	})
	var e *extpolicy.Error
	if !errors.Is(err, extpolicy.ErrDeadlock) || !errors.As(err, &e) {
		t.Fatalf("error %v, want a deadlock", err)
	}
	if want := int64(5 + extpolicy.MaxIdleRounds - 1); e.Time != want || e.Job != 0 {
		t.Errorf("at time %d about job %d, want time %d, job 0", e.Time, e.Job, want)
	}
}

// A trace without jobs: the first message, then the final one at time 0.
func TestNoJobs(t *testing.T) {
	msgs, _, err := runScripted(t, 4, nil, func(m map[string]any) string { return `{"protocol":1}` })
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 2 || msgs[1]["type"] != "end" || num(msgs[1], "time") != 0 {
		t.Fatalf("messages %v, want hello and an end at time 0", msgs)
	}
}

// "start_head": the engine starts the queue's head while it fits and asks
// only when a waiting job still fits behind it, listing its own starts.
// The program here starts nothing itself, yet the run ends (the engine's
// starts are progress):
//
//	0  jobs 0 (2 procs) and 1 (4) arrive: the engine starts 0; job 1 does
//	   not fit in the 2 left, nothing else waits: no message
//	5  job 2 (1 proc) arrives and fits behind the head, job 1: message 1
//	   (arrivals 0, 1, 2; started 0 at 0); the reply starts nothing
//	10 job 0 ends: the engine starts 1; job 2 does not fit: no message
//	15 job 1 ends: the engine starts 2; nothing waits: no message
//	20 job 2 ends: the final message has the starts at 10 and 15
func TestStartHead(t *testing.T) {
	jobs := tinyJobs()
	msgs, p, err := runScripted(t, 4, jobs, func(m map[string]any) string {
		if m["type"] == "hello" {
			return `{"protocol":1,"start_head":true}`
		}
		return `{"start":[]}`
	})
	if err != nil {
		t.Fatal(err)
	}
	if supports, _ := json.Marshal(msgs[0]["supports"]); string(supports) != `["start","timer","start_head","quiet_ends"]` {
		t.Errorf("hello supports %s", supports)
	}
	if len(msgs) != 3 {
		t.Fatalf("%d messages, want hello, one round and the end: %v", len(msgs), msgs)
	}
	round, _ := json.Marshal(map[string]any{"time": msgs[1]["time"], "started": msgs[1]["started"], "free": msgs[1]["free"]})
	if string(round) != `{"free":2,"started":[{"id":0,"time":0}],"time":5}` {
		t.Errorf("round message %s", round)
	}
	end, _ := json.Marshal(map[string]any{"started": msgs[2]["started"], "ended": msgs[2]["ended"]})
	if string(end) != `{"ended":[{"id":0,"time":10},{"id":1,"time":15},{"id":2,"time":20}],"started":[{"id":1,"time":10},{"id":2,"time":15}]}` {
		t.Errorf("final message %s", end)
	}
	if jobs[0].Start != 0 || jobs[1].Start != 10 || jobs[2].Start != 15 {
		t.Errorf("starts %d %d %d, want 0 10 15", jobs[0].Start, jobs[1].Start, jobs[2].Start)
	}
	if !strings.Contains(p.Note(), "1 round messages for 5 scheduling rounds (start_head") {
		t.Errorf("note %q", p.Note())
	}
}

// Without start_head no message has a "started" key.
func TestNoStartedWithoutStartHead(t *testing.T) {
	msgs, _, err := runScripted(t, 4, tinyJobs(), func(m map[string]any) string {
		if m["type"] == "hello" {
			return `{"protocol":1}`
		}
		return fcfsReply(m)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs[1:] {
		if _, ok := m["started"]; ok {
			t.Errorf("%v has started", m)
		}
	}
}

// fcfsReply answers the rounds of tinyJobs as FCFS does.
func fcfsReply(m map[string]any) string {
	switch num(m, "time") {
	case 0:
		return `{"start":[0]}`
	case 5:
		return `{"start":[2]}`
	}
	return `{"start":[1]}`
}

// A program that asked for start_head but ignores "started" and starts the
// job the engine already started: the usual check names it.
func TestStartHeadIgnored(t *testing.T) {
	_, _, err := runScripted(t, 4, tinyJobs(), func(m map[string]any) string {
		if m["type"] == "hello" {
			return `{"protocol":1,"start_head":true}`
		}
		return `{"start":[0]}`
	})
	var e *extpolicy.Error
	if !errors.Is(err, extpolicy.ErrNotWaiting) || !errors.As(err, &e) {
		t.Fatalf("error %v, want ErrNotWaiting", err)
	}
	if e.Round != 1 || e.Time != 5 || e.Job != 0 || !strings.Contains(err.Error(), "already running (started at 0)") {
		t.Errorf("error %v", err)
	}
}

// "quiet_ends": an end the program named, alone since the last message while
// another job still runs, gets no message; it comes with the next one. On 4
// processors, with start_head and a program that never backfills:
//
//	0  jobs 0 and 1 (1 proc each) start (start_head); job 2 (4 procs) is
//	   the head and does not fit; job 3 (1 proc) fits: message 1. The reply
//	   starts nothing and names job 0 in quiet_ends
//	10 job 0 ends, the only event, job 1 still runs: no message (job 3 fits)
//	15 job 4 (1 proc) arrives: message 2, with job 0's end at 10
//	20 job 1 ends: the engine starts job 2 (4 procs); nothing else fits
//	25 job 2 ends: the engine starts jobs 3 and 4
func TestQuietEnds(t *testing.T) {
	jobs := []sim.Job{
		{Procs: 1, Submit: 0, Runtime: 10, Estimate: 10},
		{Procs: 1, Submit: 0, Runtime: 20, Estimate: 20},
		{Procs: 4, Submit: 0, Runtime: 5, Estimate: 5},
		{Procs: 1, Submit: 0, Runtime: 100, Estimate: 100},
		{Procs: 1, Submit: 15, Runtime: 1, Estimate: 1},
	}
	msgs, p, err := runScripted(t, 4, jobs, func(m map[string]any) string {
		switch {
		case m["type"] == "hello":
			return `{"protocol":1,"start_head":true}`
		case num(m, "time") == 0:
			return `{"start":[],"quiet_ends":[0]}`
		}
		return `{"start":[]}`
	})
	if err != nil {
		t.Fatal(err)
	}
	var times []int64
	for _, m := range msgs[1 : len(msgs)-1] {
		times = append(times, num(m, "time"))
	}
	if fmt.Sprint(times) != "[0 15]" {
		t.Fatalf("round messages at %v, want [0 15]", times)
	}
	if ended, _ := json.Marshal(msgs[2]["ended"]); string(ended) != `[{"id":0,"time":10}]` {
		t.Errorf("message at 15: ended %s", ended)
	}
	if jobs[2].Start != 20 || jobs[3].Start != 25 || jobs[4].Start != 25 {
		t.Errorf("starts %d %d %d, want 20 25 25", jobs[2].Start, jobs[3].Start, jobs[4].Start)
	}
	if !strings.Contains(p.Note(), "(quiet_ends: 1 rounds after a quiet end not sent)") {
		t.Errorf("note %q", p.Note())
	}
}

// quiet_ends that the engine refuses, and one that cannot stall a run.
func TestQuietEndsMisuse(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replies map[int64]string // by round time; the rest start nothing
		want    error
		round   int64
		time    int64
		job     int32
		text    string
	}{
		{"a job that is not running", map[int64]string{0: `{"start":[0],"quiet_ends":[1]}`},
			extpolicy.ErrProtocol, 1, 0, 1, "quiet_ends[0]: protocol violation: the job is not running"},
		{"an unknown job", map[int64]string{0: `{"start":[0],"quiet_ends":[0,9]}`},
			extpolicy.ErrUnknownJob, 1, 0, -1, "quiet_ends[1]: unknown job id 9"},
		// Job 0 is named, and its end at 10 is the only event, but nothing
		// else runs then: the message goes out anyway, and a program that
		// then starts nothing is a deadlock, reported, not a silent hang.
		{"the last running job", map[int64]string{0: `{"start":[0],"quiet_ends":[0]}`, 5: `{"start":[],"quiet_ends":[0]}`},
			extpolicy.ErrDeadlock, 3, 10, 1, "nothing runs, no job will arrive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runScripted(t, 4, tinyJobs(), func(m map[string]any) string {
				if m["type"] == "hello" {
					return `{"protocol":1}`
				}
				if r, ok := tc.replies[num(m, "time")]; ok {
					return r
				}
				return `{"start":[]}`
			})
			var e *extpolicy.Error
			if !errors.Is(err, tc.want) || !errors.As(err, &e) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			if e.Round != tc.round || e.Time != tc.time || e.Job != tc.job || !strings.Contains(err.Error(), tc.text) {
				t.Errorf("round %d time %d job %d: %v; want round %d time %d job %d, %q", e.Round, e.Time, e.Job, err, tc.round, tc.time, tc.job, tc.text)
			}
		})
	}
}
