package policy

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/swfkit/swfkit/pkg/predict"
	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/swf"
)

// Params holds every policy parameter. The zero value selects the documented
// defaults; each policy reads only the fields its Info.Params names.
type Params struct {
	// LXFWWeight is lxfw's weight w per hour of wait; 0 means DefaultLXFWWeight.
	// Set UseLXFWWeight to pass an explicit 0 (plain LXF order).
	LXFWWeight    float64
	UseLXFWWeight bool
	// PriorityOrder lists queue numbers from the highest priority to the
	// lowest, a group of queues sharing one priority: priofifo's classes and
	// the order of ga's "priority" seed. nil means ascending queue number,
	// unknown (-1) last.
	PriorityOrder [][]int64

	// GA holds ga's and ga-ckpt's parameters.
	GA GAConfig
	// Extra returns the value of extension token key (e.g. "u", "ckpt") of
	// the job with the given ID; policies that read per-job tokens (ga,
	// ga-ckpt, and the predictor "token" of easy-p, sjbf and easy++) need
	// it. nil means no job has tokens.
	Extra func(id int32, key string) (string, bool)
	// Research holds the parameters of the research policies (research.go).
	Research ResearchParams
	// Exec holds policy exec's program and settings (exec.go).
	Exec ExecParams
}

// Info describes one policy in the registration table.
type Info struct {
	// Name is what --policy takes.
	Name string
	// Summary is one line for --list-policies.
	Summary string
	// Params names the Params fields (as CLI flag names) the policy reads.
	Params []string
	// Needs lists the extension tokens the policy requires on its input
	// (e.g. "u" for ga): without them New fails.
	Needs []string
	// New builds a fresh policy for one simulation of n jobs.
	New func(p Params, n int) (sim.Policy, error)
}

// table is the one explicit list of policies, in --list-policies order.
var table = []Info{
	{Name: "fcfs", Summary: "first come first served: strict arrival order, no backfilling",
		New: func(Params, int) (sim.Policy, error) { return &FCFS{}, nil }},
	{Name: "easy", Summary: "EASY backfilling: reservation for the queue head only (Lifka; Mu'alem & Feitelson)",
		New: func(Params, int) (sim.Policy, error) { return &EASY{}, nil }},
	{Name: "conservative", Summary: "conservative backfilling: every queued job holds a reservation (Mu'alem & Feitelson)",
		New: func(_ Params, n int) (sim.Policy, error) { return NewConservative(n), nil }},
	{Name: "priofifo", Summary: "priority classes from the queue field, FIFO within, EASY backfilling (Chun & Culler; Lee 1.3.5)",
		Params: []string{"priority-order"},
		New: func(p Params, _ int) (sim.Policy, error) {
			return NewPrioFIFO(p.PriorityOrder), nil
		}},
	{Name: "sjf", Summary: "shortest requested time first, EASY backfilling (Chiang et al.; Guim et al.)",
		New: func(Params, int) (sim.Policy, error) { return NewSJF(), nil }},
	{Name: "lxf", Summary: "largest current expansion factor first, EASY backfilling (Chiang et al.)",
		New: func(Params, int) (sim.Policy, error) { return NewLXF(), nil }},
	{Name: "lxfw", Summary: "largest expansion factor plus weighted wait first, EASY backfilling (Chiang et al.; Guim et al.)",
		Params: []string{"lxfw-weight"},
		New: func(p Params, _ int) (sim.Policy, error) {
			w := DefaultLXFWWeight
			if p.UseLXFWWeight || p.LXFWWeight != 0 {
				w = p.LXFWWeight
			}
			if w < 0 {
				return nil, &ParamError{Param: "lxfw-weight", Value: strconv.FormatFloat(w, 'g', -1, 64), Msg: "the weight is negative"}
			}
			return NewLXFW(w), nil
		}},
	{Name: "selective", Summary: "selective reservation: a job gets a reservation once its expansion factor passes a threshold (Srinivasan et al.)",
		Params: []string{"threshold", "well-estimated", "bsld-threshold"},
		New:    func(p Params, n int) (sim.Policy, error) { return newSelective(p.Research, false, n) }},
	{Name: "selective-d", Summary: "selective reservation with one threshold per short/long x narrow/wide category (Srinivasan et al.)",
		Params: []string{"threshold", "category-runtime", "category-procs", "well-estimated", "bsld-threshold"},
		New:    func(p Params, n int) (sim.Policy, error) { return newSelective(p.Research, true, n) }},
	{Name: "timed-fcfs", Summary: "FCFS with a fixed-length trial run for every job as soon as possible (Thebe, Bunde & Leung)",
		Params: []string{"trial"},
		New:    func(p Params, n int) (sim.Policy, error) { return newTimed(p.Research, TimedFCFS, n) }},
	{Name: "timed-easy", Summary: "EASY with a fixed-length trial run for every job as soon as possible (Thebe, Bunde & Leung)",
		Params: []string{"trial"},
		New:    func(p Params, n int) (sim.Policy, error) { return newTimed(p.Research, TimedEASY, n) }},
	{Name: "easy-p", Summary: "EASY with system-generated runtime predictions and prediction correction (Tsafrir, Etsion & Feitelson)",
		Params: []string{"predictor", "corrector", "ladder", "repredict"},
		New: func(p Params, n int) (sim.Policy, error) {
			return newPredictive(p, predict.NameLast2, false, n)
		}},
	{Name: "sjbf", Summary: "EASY backfilling the shortest (by user estimate) waiting jobs first (Tsafrir, Etsion & Feitelson)",
		Params: []string{"predictor", "corrector", "ladder", "repredict"},
		New: func(p Params, n int) (sim.Policy, error) {
			return newPredictive(p, predict.NameEstimate, true, n)
		}},
	{Name: "easy++", Summary: "EASY with last-two predictions, prediction correction and shortest-job backfilled first (Tsafrir, Etsion & Feitelson)",
		Params: []string{"predictor", "corrector", "ladder", "repredict"},
		New: func(p Params, n int) (sim.Policy, error) {
			return newPredictive(p, predict.NameLast2, true, n)
		}},
	{Name: "ga", Summary: "genetic algorithm over queue orderings maximising aggregate utility, EASY over the best (Lee 2009 ch. 3)",
		Params: []string{"ga-population", "ga-generations", "ga-mutation", "ga-elitism", "ga-seeds", "ga-warm-start", "ga-workers", "priority-order"},
		Needs:  []string{"u"},
		New:    func(p Params, n int) (sim.Policy, error) { return newGAFromParams(p, n, false) }},
	{Name: "ga-ckpt", Summary: "checkpoint-aware ga: may terminate and requeue checkpointing jobs (Lee 2009 6.7)",
		Params: []string{"ga-population", "ga-generations", "ga-mutation", "ga-elitism", "ga-seeds", "ga-warm-start", "ga-workers",
			"priority-order", "bump-limit", "boost", "airline", "restart-overhead"},
		Needs: []string{"u"},
		New:   func(p Params, n int) (sim.Policy, error) { return newGAFromParams(p, n, true) }},
	{Name: "exec", Summary: "a scheduler in another program (any language), driven over JSON lines on its stdin/stdout (docs/swfsim-external.md)",
		Params: []string{"exec", "exec-timeout", "exec-spin"},
		New:    func(p Params, _ int) (sim.Policy, error) { return newExec(p.Exec) }},
}

// List returns the registered policies in table order. The slice is a copy.
func List() []Info { return append([]Info(nil), table...) }

// Lookup returns the policy named name.
func Lookup(name string) (Info, bool) {
	for _, in := range table {
		if in.Name == name {
			return in, true
		}
	}
	return Info{}, false
}

// Names returns the registered names joined by ", ", for error messages.
func Names() string {
	names := make([]string, len(table))
	for i, in := range table {
		names[i] = in.Name
	}
	return strings.Join(names, ", ")
}

// ParsePriorityOrder parses a priority order of queues, highest first,
// '+' joining queues of equal priority, e.g. "0,1+12,2": swf.ParseQueueOrder,
// the syntax swfaugment's --priority-order takes too.
func ParsePriorityOrder(s string) ([][]int64, error) { return swf.ParseQueueOrder(s) }

// FormatPriorityOrder writes order back in ParsePriorityOrder's syntax.
func FormatPriorityOrder(order [][]int64) string { return swf.FormatQueueOrder(order) }

// ParamError is a bad value of a policy parameter. Param names it as
// Info.Params and swfsim's flag do ("threshold"), Value is the value as
// given (empty for a switch), Msg what is wrong with it.
type ParamError struct{ Param, Value, Msg string }

func (e *ParamError) Error() string {
	if e.Value == "" {
		return "policy: " + e.Param + ": " + e.Msg
	}
	return fmt.Sprintf("policy: %s %q: %s", e.Param, e.Value, e.Msg)
}
