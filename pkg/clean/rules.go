package clean

import (
	"fmt"
	"math"
	"strings"

	"github.com/swfkit/swfkit/pkg/swf"
)

// Rule is one cleaning rule of the registry.
type Rule struct {
	Name    string
	Summary string
	// Default marks the rules of the default set.
	Default bool
	// WholeTrace marks a rule that must see every record before it can emit one,
	// so selecting it makes the cleaner hold the whole trace in memory (flurries
	// only without Config.Flurries).
	WholeTrace bool
	// Memory says what the rule keeps, when WholeTrace does not say it all.
	Memory string

	build func(c *Cleaner) (step, error)
}

// Rules is the registry, in the order the rules are applied. Filters (--filter,
// --keep) run before every rule.
var Rules = []Rule{
	{Name: "flurries", Summary: "drop flurries: a user's jobs in a burst where that user submits an outsized share (thresholds: FlurryConfig, --flurry-*)",
		WholeTrace: true, Memory: "holds the whole trace, or with Config.Flurries from a first pass streams (swfclean reads its input twice unless another rule holds the trace; 32 bytes per record in the first pass)",
		build: buildFlurries},
	{Name: "merge_partial", Summary: "merge partial-execution lines (status 2/3/4) of one job into one record (Preemption Yes/Double logs)",
		WholeTrace: true, build: buildMergePartial},
	{Name: "zero_to_unknown", Summary: "write 0 as -1 (unknown) in fields 5-10, as the archive's converter does",
		Default: true, build: perJob(zeroToUnknown)},
	{Name: "negative_to_unknown", Summary: "write negative values other than -1 in fields 2-18 (negative submits, waits, runtimes...) as -1",
		Default: true, build: perJob(negativeToUnknown)},
	{Name: "runtime_from_cpu", Summary: "when the run time (field 4) is unknown, take it from the average CPU time (field 6), as Thebe et al. do",
		build: perJob(runtimeFromCPU)},
	{Name: "estimate_from_runtime", Summary: "when the requested time (field 9) is unknown, set it to the run time when above 0 (a requested time of 0 is the anomaly run_req_zero)",
		build: buildEstimateFromRuntime},
	{Name: "clamp_too_big", Summary: "clamp allocated and requested processors (fields 5, 8) to the machine size instead of dropping the job",
		build: buildMachineRule(false)},
	{Name: "cancelled_unstarted", Summary: "drop jobs cancelled before they started (status 5 with run time 0 or unknown)",
		Default: true, build: perJob(cancelledUnstarted)},
	{Name: "no_procs", Summary: "drop jobs with no processors (fields 5 and 8 both 0 or unknown)",
		Default: true, build: perJob(noProcs)},
	{Name: "too_big", Summary: "drop jobs with more processors (field 5 or 8) than the machine (--procs, else MaxProcs, else MaxNodes, of the header as written: --set)",
		Default: true, build: buildMachineRule(true)},
	{Name: "unknown_runtime", Summary: "drop jobs whose run time (field 4) is unknown",
		Default: true, build: perJob(unknownRuntime)},
	{Name: "unknown_submit", Summary: "drop jobs whose submit time (field 2) is unknown (swfsim cannot place them; --check: submit_undef)",
		Default: true, build: perJob(unknownSubmit)},
	{Name: "sort_submit", Summary: "sort records by submit time (stable: ties keep file order; unknown submit times after the known ones)",
		WholeTrace: true, build: buildSortSubmit},
	{Name: "shift_time", Summary: "shift submit times so the earliest is 0, adjusting UnixStartTime (and StartTime)",
		WholeTrace: true, build: buildShiftTime},
	{Name: "renumber", Summary: "renumber jobs 1..N in output order, rewriting preceding-job references (field 17)",
		Memory: "keeps a map from old to new job number, about 40 bytes per job", build: buildRenumber},
	{Name: "anonymize", Summary: "renumber user, group, executable, queue and partition ids 1..N by first appearance (queue 0 stays 0)",
		Memory: "keeps a map per id kind: grows with distinct ids, not records", build: buildAnonymize},
}

// LookupRule returns the registry entry with this name.
func LookupRule(name string) (Rule, bool) {
	for _, r := range Rules {
		if r.Name == name {
			return r, true
		}
	}
	return Rule{}, false
}

// DefaultRules returns the names of the default set, in registry order.
func DefaultRules() []string {
	var names []string
	for _, r := range Rules {
		if r.Default {
			names = append(names, r.Name)
		}
	}
	return names
}

// SelectRules resolves a --rules value ("default", "none", "all" or a comma
// list of names, which may include "default") minus the skipped names. The result
// is in registry order. Unknown names are an error.
func SelectRules(spec string, skip []string) ([]string, error) {
	chosen := map[string]bool{}
	for _, word := range strings.Split(spec, ",") {
		word = strings.TrimSpace(word)
		switch word {
		case "none", "":
		case "default":
			for _, n := range DefaultRules() {
				chosen[n] = true
			}
		case "all":
			for _, r := range Rules {
				chosen[r.Name] = true
			}
		default:
			if _, ok := LookupRule(word); !ok {
				return nil, fmt.Errorf("unknown rule %q (see --list-rules)", word)
			}
			chosen[word] = true
		}
	}
	for _, s := range skip {
		for _, word := range strings.Split(s, ",") {
			word = strings.TrimSpace(word)
			if _, ok := LookupRule(word); !ok {
				return nil, fmt.Errorf("unknown rule %q in --skip (see --list-rules)", word)
			}
			delete(chosen, word)
		}
	}
	var names []string
	for _, r := range Rules {
		if chosen[r.Name] {
			names = append(names, r.Name)
		}
	}
	return names, nil
}

// verdict is what a per-job stage did to a record.
type verdict uint8

const (
	kept verdict = iota
	changed
	dropped
	// noted: kept as it was, and counted in the step's detail (a record
	// the rule declined to change, for a reason the detail gives).
	noted
)

// step is one stage of the pipeline: exactly one of job and trace is set; a
// step with neither is inactive (a rule that found nothing to do, such as
// too_big without a machine size).
type step struct {
	name  string
	job   func(j *swf.Job) verdict
	trace traceStage
	tally Tally
	// jobNumbers marks a step whose name names job numbers (a filter or
	// keep whose NamesJobNumbers is true): the input's, since filters run
	// first.
	jobNumbers bool
	// detail, when not nil, says what the counts do not, once every record
	// went through (records a rule left as they were, and why), given how
	// many records written the step noted; "" for nothing to say.
	detail func(noted int) string
	// bit is the step's place in a record's change marks (Cleaner.mark),
	// -1 for a filter or keep, which changes no record.
	bit int
	// noted counts the records written that the step noted.
	noted int
	// notApplied says why a selected rule is inactive (too_big without a
	// machine size): its Note must not read as a rule that ran and found
	// nothing.
	notApplied string
}

// traceStage needs the whole trace. It returns the records to keep, in order,
// and reports what it dropped and changed through t.
type traceStage interface {
	applyAll(jobs []swf.Job, t *tracker) []swf.Job
}

// perJob builds a step from a stateless per-record function.
func perJob(fn func(j *swf.Job) verdict) func(c *Cleaner) (step, error) {
	return func(*Cleaner) (step, error) { return step{job: fn}, nil }
}

func zeroToUnknown(j *swf.Job) verdict {
	v := kept
	for n := swf.FieldAllocatedProcs; n <= swf.FieldRequestedMemory; n++ {
		if j.Field(n) == 0 {
			j.SetField(n, -1)
			v = changed
		}
	}
	return v
}

func negativeToUnknown(j *swf.Job) verdict {
	v := kept
	for n := swf.FieldSubmitTime; n <= swf.FieldThinkTime; n++ {
		if x := j.Field(n); x < 0 && x != -1 {
			j.SetField(n, -1)
			v = changed
		}
	}
	return v
}

func runtimeFromCPU(j *swf.Job) verdict {
	if j.RunTime == -1 && j.AverageCPUTime >= 0 {
		j.RunTime = int64(math.Round(j.AverageCPUTime))
		return changed
	}
	return kept
}

// buildEstimateFromRuntime copies a run time above 0 into an unknown
// requested time. A run time of 0 is not copied: a requested time of 0 is the
// anomaly run_req_zero that zero_to_unknown removed; the records written
// that were left unknown for that are counted in the step's detail.
func buildEstimateFromRuntime(*Cleaner) (step, error) {
	return step{
		job: func(j *swf.Job) verdict {
			v, zeroRun := estimateFromRuntime(j)
			if zeroRun {
				return noted
			}
			return v
		},
		detail: func(leftZero int) string {
			if leftZero == 0 {
				return ""
			}
			return jobCount(leftZero) + " with run time 0 left with requested time unknown"
		},
	}, nil
}

// estimateFromRuntime applies the rule to one record; zeroRun reports a
// record whose unknown requested time stayed so because its run time is 0.
func estimateFromRuntime(j *swf.Job) (v verdict, zeroRun bool) {
	if j.RequestedTime > 0 || j.RunTime < 0 {
		return kept, false
	}
	if j.RunTime == 0 {
		// A field 9 of 0 stays 0 (the rule alone, without zero_to_unknown):
		// the rule writes no value, it only declines to write one.
		return kept, true
	}
	j.RequestedTime = j.RunTime
	return changed, false
}

func cancelledUnstarted(j *swf.Job) verdict {
	if j.Status == swf.StatusCancelled && j.RunTime <= 0 {
		return dropped
	}
	return kept
}

func noProcs(j *swf.Job) verdict {
	if j.AllocatedProcs <= 0 && j.RequestedProcs <= 0 {
		return dropped
	}
	return kept
}

func unknownRuntime(j *swf.Job) verdict {
	if j.RunTime < 0 {
		return dropped
	}
	return kept
}

func unknownSubmit(j *swf.Job) verdict {
	if j.SubmitTime < 0 {
		return dropped
	}
	return kept
}

// buildMachineRule builds too_big (drop) or clamp_too_big. Without a machine
// size the rule is inactive and says so in the report's warnings.
func buildMachineRule(drop bool) func(c *Cleaner) (step, error) {
	return func(c *Cleaner) (step, error) {
		size, why, err := c.machineSize()
		if err != nil {
			return step{}, err
		}
		if size <= 0 {
			return step{notApplied: why + " (give --procs)"}, nil
		}
		if drop {
			return step{job: func(j *swf.Job) verdict {
				if j.AllocatedProcs > size || j.RequestedProcs > size {
					return dropped
				}
				return kept
			}}, nil
		}
		return step{job: func(j *swf.Job) verdict {
			v := kept
			if j.AllocatedProcs > size {
				j.AllocatedProcs, v = size, changed
			}
			if j.RequestedProcs > size {
				j.RequestedProcs, v = size, changed
			}
			return v
		}}, nil
	}
}
