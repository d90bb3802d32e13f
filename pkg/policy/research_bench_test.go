package policy

import (
	"testing"

	"github.com/swfkit/swfkit/pkg/sim"
)

// waitStats returns the average and maximum wait (to the start of the run
// that finished) over all jobs.
func waitStats(jobs []sim.Job) (avg float64, maxWait int64) {
	var sum int64
	for i := range jobs {
		w := jobs[i].Start - jobs[i].Submit
		sum += w
		maxWait = max(maxWait, w)
	}
	return float64(sum) / float64(len(jobs)), maxWait
}

// loadTrialTrace loads a trace of the trial-run benchmarks: thebeLANL is
// LANL-CM5 with the paper's preprocessing (loadThebeLANL).
func loadTrialTrace(b *testing.B, name string) *researchTrace {
	if name == thebeLANL {
		return loadThebeLANL(b)
	}
	return loadResearchTrace(b, name)
}

// BenchmarkTrialRunWaits reports FCFS, timed-FCFS, EASY and timed-EASY (90 s
// trials) average and maximum waits on the traces of Thebe et al., Fig. 4,
// with jobs running to completion (--no-kill) and with kills at the estimate:
//
//	go test -run XXX -bench TrialRunWaits -benchtime 1x ./pkg/policy
func BenchmarkTrialRunWaits(b *testing.B) {
	for _, name := range []string{"KTH-SP2-1996-2.1-cln.swf.gz", "KTH-SP2-1996-2-unfiltered.swf.gz", "LANL-CM5-1994-4.1-cln.swf.gz", thebeLANL} {
		for _, noKill := range []bool{true, false} {
			for _, policy := range []string{"fcfs", "timed-fcfs", "easy", "timed-easy"} {
				label := name + "/" + policy
				if noKill {
					label += "/no-kill"
				}
				b.Run(label, func(b *testing.B) {
					tr := loadTrialTrace(b, name)
					var avg float64
					var maxWait int64
					for range b.N {
						jobs, _ := tr.simulate(b, policy, ResearchParams{}, noKill)
						avg, maxWait = waitStats(jobs)
					}
					b.ReportMetric(avg, "avg-wait-s")
					b.ReportMetric(float64(maxWait), "max-wait-s")
				})
			}
		}
	}
}

// benchPolicy simulates one policy over a trace, for speed comparisons with
// conservative (issue 6: none more than 3 times slower).
func benchPolicy(b *testing.B, trace, policy string, params ResearchParams) {
	tr := loadResearchTrace(b, trace)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		tr.simulate(b, policy, params, false)
	}
	b.ReportMetric(float64(len(tr.jobs)), "jobs")
}

var researchBenchPolicies = []struct {
	label  string
	policy string
	params ResearchParams
}{
	{"conservative", "conservative", ResearchParams{}},
	{"selective-auto", "selective", ResearchParams{}},
	{"selective-3", "selective", ResearchParams{Threshold: "3"}},
	{"selective-adaptive", "selective", ResearchParams{Threshold: "adaptive"}},
	{"selective-d-auto", "selective-d", ResearchParams{}},
	{"timed-fcfs", "timed-fcfs", ResearchParams{}},
	{"timed-easy", "timed-easy", ResearchParams{}},
	{"easy-p", "easy-p", ResearchParams{}},
	{"sjbf", "sjbf", ResearchParams{}},
	{"easy++", "easy++", ResearchParams{}},
}

// BenchmarkResearchPolicies: go test -run XXX -bench ResearchPolicies ./pkg/policy
func BenchmarkResearchPolicies(b *testing.B) {
	for _, trace := range []string{"LANL-CM5-1994-4.1-cln.swf.gz", "RICC-2010-2.swf.gz"} {
		for _, p := range researchBenchPolicies {
			b.Run(trace+"/"+p.label, func(b *testing.B) { benchPolicy(b, trace, p.policy, p.params) })
		}
	}
}

// BenchmarkFairStarts: go test -run XXX -bench FairStarts ./pkg/policy
func BenchmarkFairStarts(b *testing.B) {
	for _, trace := range []string{"KTH-SP2-1996-2.1-cln.swf.gz", "LANL-CM5-1994-4.1-cln.swf.gz", "RICC-2010-2.swf.gz"} {
		b.Run(trace, func(b *testing.B) {
			tr := loadResearchTrace(b, trace)
			b.ReportAllocs()
			for range b.N {
				if _, err := FairStarts(sim.Config{Procs: tr.procs}, tr.jobs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTrialRunReadings reports, on the Fig. 4 runs of Thebe et al.
// (90 s trials, --no-kill), the average and maximum waits of the readings of
// section 2.1 that timed-fcfs and timed-easy do not follow
// (timed_readings_test.go), next to their own, and the restarts (kills) and
// how many of them were same-pass restarts (a job killed for a start and
// restarted by the same pass):
//
//	go test -run XXX -bench TrialRunReadings -benchtime 1x ./pkg/policy
func BenchmarkTrialRunReadings(b *testing.B) {
	type reading struct {
		label   string
		base    TimedBase
		trial   int64
		reading timedReading
		toEst   bool
	}
	readings := []reading{
		{"timed-fcfs/ours", TimedFCFS, DefaultTrial, timedReadingOurs, false},
		{"timed-fcfs/decide-first", TimedFCFS, DefaultTrial, timedReadingDecideFirst, false},
		{"timed-easy/ours", TimedEASY, DefaultTrial, timedReadingOurs, false},
		{"timed-easy/decide-first", TimedEASY, DefaultTrial, timedReadingDecideFirst, false},
		{"timed-easy/stored-guarantee", TimedEASY, DefaultTrial, timedReadingStoredGuarantee, false},
		{"timed-easy/trial-to-estimate", TimedEASY, DefaultTrial, timedReadingOurs, true},
		{"timed-easy/stored-guarantee/trial-0", TimedEASY, 0, timedReadingStoredGuarantee, false},
	}
	for _, name := range []string{"KTH-SP2-1996-2.1-cln.swf.gz", "KTH-SP2-1996-2-unfiltered.swf.gz", thebeLANL} {
		for _, r := range readings {
			b.Run(name+"/"+r.label, func(b *testing.B) {
				tr := loadTrialTrace(b, name)
				var avg float64
				var maxWait int64
				var p *timedAlt
				for range b.N {
					jobs := append([]sim.Job(nil), tr.jobs...)
					p = newTimedAlt(r.base, r.trial, len(jobs), r.reading)
					p.trialSeenToEstimate = r.toEst
					s, err := sim.New(sim.Config{Procs: tr.procs, NoKill: true}, jobs)
					if err != nil {
						b.Fatal(err)
					}
					if err := s.Run(p); err != nil {
						b.Fatal(err)
					}
					avg, maxWait = waitStats(jobs)
				}
				b.ReportMetric(avg, "avg-wait-s")
				b.ReportMetric(float64(maxWait), "max-wait-s")
				b.ReportMetric(float64(p.Stats.Kills), "restarts")
				b.ReportMetric(float64(p.samePassRestart), "same-pass-restarts")
			})
		}
	}
}
