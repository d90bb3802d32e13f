package policy

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/sim"
)

// rjob is one job of a hand-computed research-policy scenario.
type rjob struct {
	submit   int64
	procs    int32
	runtime  int64
	estimate int64
	user     int32
}

// rcase is a hand-computed scenario: the start of the run that finishes
// (sim.Job.Start) and the end of every job, worked out by hand in the comment
// above each case.
type rcase struct {
	name   string
	policy string
	procs  int64
	noKill bool
	params ResearchParams
	jobs   []rjob
	start  []int64
	end    []int64  // optional
	note   []string // substrings the policy's Note must contain
}

func (c rcase) simJobs() []sim.Job {
	jobs := make([]sim.Job, len(c.jobs))
	for i, j := range c.jobs {
		jobs[i] = sim.Job{Submit: j.submit, Procs: j.procs, Runtime: j.runtime, Estimate: j.estimate, User: j.user, Queue: -1}
	}
	return jobs
}

func runResearch(t *testing.T, name string, procs int64, noKill bool, params ResearchParams, jobs []sim.Job) sim.Policy {
	t.Helper()
	info, ok := Lookup(name)
	if !ok {
		t.Fatalf("policy %q not registered", name)
	}
	p, err := info.New(Params{Research: params}, len(jobs))
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(sim.Config{Procs: procs, NoKill: noKill}, jobs)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(p); err != nil {
		t.Fatal(err)
	}
	return p
}

func checkCase(t *testing.T, c rcase) {
	t.Helper()
	jobs := c.simJobs()
	p := runResearch(t, c.policy, c.procs, c.noKill, c.params, jobs)
	var got, gotEnd []int64
	for _, j := range jobs {
		got = append(got, j.Start)
		gotEnd = append(gotEnd, j.End)
	}
	if !slices.Equal(got, c.start) {
		t.Errorf("starts = %v, want %v", got, c.start)
	}
	if c.end != nil && !slices.Equal(gotEnd, c.end) {
		t.Errorf("ends = %v, want %v", gotEnd, c.end)
	}
	if len(c.note) > 0 {
		n, ok := p.(Noter)
		if !ok {
			t.Fatalf("%s has no Note", c.policy)
		}
		note := n.Note()
		for _, want := range c.note {
			if !strings.Contains(note, want) {
				t.Errorf("Note %q lacks %q", note, want)
			}
		}
	}
}

func TestResearchScenarios(t *testing.T) {
	for _, group := range [][]rcase{selectiveCases, timedCases, predictiveCases} {
		for _, c := range group {
			t.Run(fmt.Sprintf("%s/%s", c.policy, c.name), func(t *testing.T) { checkCase(t, c) })
		}
	}
}
