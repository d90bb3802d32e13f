package simcli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/extpolicy"
	"github.com/swfkit/swfkit/pkg/policy"
	"github.com/swfkit/swfkit/pkg/predict"
	"github.com/swfkit/swfkit/pkg/price"
	"github.com/swfkit/swfkit/pkg/provenance"
	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/swf"
	"github.com/swfkit/swfkit/pkg/utility"
)

// Options configures one simulation. Params, ProcsFrom and the zero values of
// the rest give the documented defaults, except Policy, which is required.
type Options struct {
	Input     string // file name for messages ("" or "-": stdin)
	Policy    string
	Params    policy.Params
	Procs     int64 // machine size override; 0: from the header
	ProcsFrom sim.ProcsFrom
	NoKill    bool
	Strict    bool
	Lenient   bool           // skip malformed lines, counted, instead of failing on the first
	KillWarn  cmdio.KillWarn // share of killed jobs above which to warn
	FairStart bool           // add fairstart=T to every job (research.go)

	// Warn receives warnings and skip counts (nil: discarded).
	Warn io.Writer
	// Progress, if set, is given the number of jobs and returns a callback for
	// the number done (or nil for no progress).
	Progress func(total int) func(done int)

	// Provenance, if not nil, is added to the output header (after the Notes)
	// as the run's configuration.
	Provenance *provenance.Record
	// InputDigest, if not nil, hashes in as it is read; its sum is added to
	// Provenance as input-sha256 (cmdio.WithInputSHA256).
	InputDigest *cmdio.Digest

	// Price selects the price= tokens to add (ga.go); PriceProgress, if not
	// nil, shows the VCG re-simulations' progress bar.
	Price         priceSetup
	PriceProgress io.Writer
}

// killer is a policy that runs processes of its own (exec's program), which
// a signal that ends swfsim must end too.
type killer interface{ Kill() }

// Simulate reads a trace from in, simulates opt.Policy and writes the
// schedule to out.
//
// Memory: the decompressed input is kept in 1 MiB chunks (about 95 bytes a
// job on archive traces) and read twice, once for the simulation records
// (sim.Job, 120 bytes) and once while writing, so no swf.Job is kept.
func Simulate(in io.Reader, out io.Writer, opt Options) error {
	info, ok := policy.Lookup(opt.Policy)
	if !ok {
		return fmt.Errorf("unknown policy %q", opt.Policy)
	}
	// Policies and prices that read u=/ckpt=/pred= tokens get them through
	// Params.Extra; only those keys are kept, only when needed.
	var tokens *jobTokens
	if needsTokens(info, opt) {
		tokens = &jobTokens{
			checkU:    info.Name == "ga" || info.Name == "ga-ckpt" || opt.Price.mode != "",
			checkCkpt: info.Name == "ga-ckpt" || opt.Price.mode != "",
			checkPred: opt.Params.Research.Predictor == predict.NameToken,
		}
		opt.Params.Extra = tokens.value
	}
	if info.Name == "exec" {
		// Arrival messages carry every job's fields and tokens: encode
		// them once while reading.
		opt.Params.Exec.Records = &extpolicy.Records{}
	}
	w, err := load(in, opt, tokens)
	if err != nil {
		return err
	}
	name, hdr, procs, source, jobs, which, skipped, killed := w.name, w.hdr, w.procs, w.source, w.jobs, w.which, w.skipped, w.killed
	data := w.data
	if info.Name == "ga-ckpt" {
		if err := checkRestartOverhead(opt.Params.GA.RestartOverhead, procs); err != nil {
			return err
		}
	}

	warn := opt.Warn
	if warn == nil {
		warn = io.Discard
	}
	if w.malformed > 0 {
		fmt.Fprintf(warn, "swfsim: %s: %s; first: %v\n", name, w.malformedNote(), w.firstMalformed[0])
	}
	for why, n := range skipped {
		if n > 0 {
			fmt.Fprintf(warn, "swfsim: %s: skipped %d jobs: %s\n", name, n, sim.SkipReason(why))
		}
	}
	// ga-ckpt without a single ckpt= token can bump nothing and schedules as
	// ga would; say so rather than let it pass for a checkpointing run.
	noCkpt := info.Name == "ga-ckpt" && tokens != nil && len(jobs) > 0 && !slices.Contains(tokens.hasCkpt, true)
	const noCkptText = "no job has a ckpt= token, so no job can be bumped and ga-ckpt schedules as ga; add them with swfaugment --checkpoint"
	if noCkpt {
		fmt.Fprintf(warn, "swfsim: warning: %s: %s\n", name, noCkptText)
	}
	// ga's fitness adds the jobs' utilities: a job without u= is worth 0
	// and may wait for ever, which a trace augmented in part (or merged
	// with another) would otherwise pass over in silence. None at all is
	// an error (policy.ErrNoUtility, below).
	var noUtilityText string
	if (info.Name == "ga" || info.Name == "ga-ckpt") && tokens != nil {
		if n := countFalse(tokens.hasU); n > 0 && n < len(tokens.hasU) {
			noUtilityText = fmt.Sprintf("%d of %d simulated jobs have no u= token: %s counts them as worth 0 whenever they end; add them with swfaugment --utility", n, len(tokens.hasU), info.Name)
			fmt.Fprintf(warn, "swfsim: warning: %s: %s\n", name, noUtilityText)
		}
	}
	// A --priority-order queue no job is in is a typo or another log's
	// queue: it orders nothing.
	var unusedQueues string
	if slices.Contains(info.Params, "priority-order") {
		if q := queuesWithoutJobs(opt.Params.PriorityOrder, jobs); len(q) > 0 {
			unusedQueues = fmt.Sprintf("--priority-order lists queue(s) %s, in which no simulated job is: they order nothing", strings.Join(q, ","))
			fmt.Fprintf(warn, "swfsim: warning: %s: %s\n", name, unusedQueues)
		}
	}
	// What the engine does not model of this input (partial executions,
	// cancellations, dependencies, estimates, partitions, processor counts,
	// a machine size after the records): a warning each, and a Note.
	unmodelled := w.unmodelledNotes(opt.ProcsFrom, len(jobs))
	for _, text := range unmodelled {
		fmt.Fprintf(warn, "swfsim: warning: %s: %s\n", name, text)
	}
	// pred= tokens are what swfaugment --as-prediction writes for Guim et
	// al.'s setup; a run that does not read them would pass for that
	// experiment with the users' estimates in place of the errors.
	unreadPred := unreadPredictions(info, opt, w.predicted)
	if unreadPred != "" {
		fmt.Fprintf(warn, "swfsim: warning: %s: %s\n", name, unreadPred)
	}
	// --no-kill where no job outlives its estimate is the run with kills:
	// a kill/no-kill comparison would show nothing without a word why.
	const noKillText = "--no-kill changes nothing here: no job runs past its requested time (an estimate model such as uniform:1,3 never underestimates; user estimates or uniform:0.5,3 do)"
	noKillIdle := opt.NoKill && len(jobs) > 0 && killed == 0
	if noKillIdle {
		fmt.Fprintf(warn, "swfsim: warning: %s: %s\n", name, noKillText)
	}
	if !opt.NoKill && len(jobs) > 0 {
		if share := float64(killed) / float64(len(jobs)); opt.KillWarn.Warns(share) {
			fmt.Fprintf(warn, "swfsim: %s: %d of %d jobs (%.1f%%) run past their requested time and will be killed at it; "+
				"use --no-kill to let them run to completion (e.g. to reproduce published results on LANL-CM5 or KTH-SP2)\n",
				name, killed, len(jobs), 100*share)
		}
	}

	if tokens != nil && tokens.checkU && w.skippedU > 0 && !slices.Contains(tokens.hasU, true) {
		return fmt.Errorf("%s: no simulated job carries a utility function (u= token): the %d that do were all skipped (counted above)", name, w.skippedU)
	}
	if tokens != nil && opt.Params.Research.Predictor == predict.NameToken && len(jobs) > 0 && !slices.Contains(tokens.hasPred, true) {
		return fmt.Errorf("%s: --predictor token: no job has a %s= token (swfaugment --as-prediction writes them)", name, policy.KeyPrediction)
	}
	if info.Name == "exec" {
		opt.Params.Exec.Header = hdr
		opt.Params.Exec.ProcsFrom = opt.ProcsFrom.String()
		opt.Params.Exec.Stderr = warn
	}
	var input []sim.Job
	if opt.Price.mode == "vcg" {
		input = slices.Clone(jobs)
	}
	// Before the policy's state exists: the conservative run of the fair
	// starts and of selective's auto thresholds (for this run only, not the
	// price re-simulations of other job sets, which take opt.Params).
	params := opt.Params
	fair := startFairStarts(opt.FairStart, info, &params.Research, sim.Config{Procs: procs, NoKill: opt.NoKill}, jobs)
	pol, err := info.New(params, len(jobs))
	if errors.Is(err, policy.ErrNoUtility) {
		return fmt.Errorf("%s: %w", name, err) // the input's fault: name it
	}
	if err != nil {
		return err
	}
	if k, ok := pol.(killer); ok {
		defer cmdio.OnSignal(k.Kill)()
	}
	cfg := sim.Config{Procs: procs, NoKill: opt.NoKill}
	if opt.Progress != nil {
		cfg.Progress = opt.Progress(len(jobs))
	}
	s, err := sim.New(cfg, jobs)
	if err != nil {
		return err
	}
	fair.followRun(pol, jobs)
	err = s.Run(pol)
	if f, ok := pol.(policy.Finisher); ok {
		err = f.Finish(s, err)
	}
	if err != nil {
		fair.abandon(err)
		return err
	}
	fairStart, err := fair.finish(jobs)
	if err != nil {
		return err
	}

	// The header describes the output: a machine size given with --procs
	// replaces MaxProcs, so that tools downstream (swfstat) see the machine
	// the schedule was made for; the Note keeps the old value.
	var headerNotes []string
	if opt.Procs > 0 {
		old := andList(hdr.GetAll("MaxProcs"))
		if old == "" {
			old = "none"
		}
		hdr.Set("MaxProcs", strconv.FormatInt(procs, 10))
		dropLaterLines(hdr, "MaxProcs") // a MaxProcs given twice: one machine out
		headerNotes = append(headerNotes, fmt.Sprintf("swfsim MaxProcs set to %d by --procs (input header: %s)", procs, old))
	}
	if noUtilityText != "" {
		headerNotes = append(headerNotes, "swfsim "+info.Name+": "+noUtilityText)
	}
	if noCkpt {
		headerNotes = append(headerNotes, "swfsim ga-ckpt: "+noCkptText)
	}
	if unusedQueues != "" {
		headerNotes = append(headerNotes, "swfsim "+info.Name+": "+unusedQueues)
	}
	if noKillIdle {
		headerNotes = append(headerNotes, "swfsim "+noKillText)
	}
	if unreadPred != "" {
		headerNotes = append(headerNotes, "swfsim "+unreadPred)
	}
	for _, text := range unmodelled {
		headerNotes = append(headerNotes, "swfsim "+text)
	}
	if w.malformed > 0 {
		headerNotes = append(headerNotes, "swfsim "+w.malformedNote())
	}
	if n := w.dropped(); n > 0 {
		headerNotes = append(headerNotes, refreshCounts(hdr, len(jobs), w.distinct(), n))
	}
	for _, n := range notes(info, opt, procs, source, skipped, jobs, w.wide) {
		hdr.AddNote(n)
	}
	for _, n := range headerNotes {
		hdr.AddNote(n)
	}
	// Prices are tokens written after the fair start's: with them, the fair
	// starts become tokens first; without, write adds them.
	researchNotes(hdr, info, pol, jobs, fairStart, opt.Price.mode != "")
	if opt.Price.mode != "" {
		fairStart = nil // tokens already
		interval, err := policy.CheckpointIntervals(len(jobs), opt.Params.Extra)
		if err != nil {
			return err
		}
		var interrupted []price.Interruption
		if g, ok := pol.(*policy.GA); ok {
			for _, b := range g.Bumps() {
				interrupted = append(interrupted, price.Interruption{ID: b.ID, At: b.At, Ran: b.Ran, Saved: b.Saved, Overhead: b.Overhead})
			}
		}
		prices, note, err := computePrices(opt.Price, input, jobs, opt.Params.Extra, procs, opt.NoKill,
			repricer(info.Name, opt.Params, interval), interrupted, opt.PriceProgress)
		if err != nil {
			return err
		}
		addPriceTokens(jobs, prices)
		hdr.AddNote("swfsim " + note)
	}
	if opt.Provenance != nil {
		// The input was read to its end (load holds it all): its hash is known.
		provenance.AddTo(hdr, cmdio.WithInputSHA256(*opt.Provenance, opt.InputDigest))
	}
	// An exec program's timers may take the simulation past any time the
	// trace gives: checkBound says so.
	cause := "the trace's times come too close to the bound"
	if info.Name == "exec" {
		cause += ", or the program's timers took the simulation there"
	}
	return write(data, name, hdr, jobs, which, fairStart, opt.Lenient, cause, out)
}

// machineSize applies DESIGN.md: --procs, else MaxProcs, else MaxNodes. The
// engine counts a job's processors in 32 bits: a larger machine is an error.
func machineSize(hdr *swf.Header, override int64, name string) (int64, string, error) {
	if override > 0 {
		return override, "--procs", nil
	}
	p, label, ok, err := sim.MachineSize(hdr)
	if err != nil {
		return 0, "", err
	}
	if !ok {
		if why := hdr.NotAMachineSize(); why != "" {
			return 0, "", fmt.Errorf("%s: %s; give one with --procs", name, why)
		}
		return 0, "", fmt.Errorf("%s: the header gives no machine size (MaxProcs or MaxNodes); give one with --procs", name)
	}
	if p > math.MaxInt32 {
		return 0, "", fmt.Errorf("%s: header %s %d: swfsim simulates machines of at most %d processors", name, label, p, math.MaxInt32)
	}
	return p, label, nil
}

// sizeTwice checks a header that gives its machine size (label, MaxProcs or
// MaxNodes) on more than one line, which the format gives once: lines with
// different values are an error (which machine is meant? --procs settles
// it), equal ones a warning, returned. swfclean --check fires
// header_label_twice on such lines.
func sizeTwice(hdr *swf.Header, label, name string) (warning string, err error) {
	var lines, values []string
	differ := false
	for _, l := range hdr.Lines {
		if l.Continuation || !strings.EqualFold(l.Label, label) {
			continue
		}
		one := swf.Header{Lines: []swf.HeaderLine{l}}
		v := l.Value
		if n, _, err := one.Int(label); err == nil {
			v = strconv.FormatInt(n, 10)
		}
		if len(values) > 0 && v != values[0] {
			differ = true
		}
		lines, values = append(lines, strconv.Itoa(l.Line)), append(values, v)
	}
	if len(lines) < 2 {
		return "", nil
	}
	where := fmt.Sprintf("header lines %s give %s %s", andList(lines), label, andList(values))
	if differ {
		return "", fmt.Errorf("%s: %s, a label the format gives once: which machine size is meant? give it with --procs", name, where)
	}
	return fmt.Sprintf("%s: %s, a label the format gives once; swfsim reads %s", name, where, values[0]), nil
}

// dropLaterLines removes every line labelled label after the first, with
// their continuations.
func dropLaterLines(hdr *swf.Header, label string) {
	kept := hdr.Lines[:0]
	seen, dropping := false, false
	for _, l := range hdr.Lines {
		if l.Continuation && dropping {
			continue
		}
		dropping = false
		if !l.Continuation && strings.EqualFold(l.Label, label) {
			if seen {
				dropping = true
				continue
			}
			seen = true
		}
		kept = append(kept, l)
	}
	hdr.Lines = kept
}

// andList joins "1", "2", "3" as "1, 2 and 3".
func andList(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// refreshCounts sets MaxJobs and MaxRecords to the output's counts when
// records were left out (swf.Header.SetCounts, as swfclean does), and returns
// the Note with the input header's values.
func refreshCounts(hdr *swf.Header, records, distinct, dropped int) string {
	old := func(label string) string {
		if v, ok := hdr.Get(label); ok {
			return v
		}
		return "none"
	}
	oldJobs, oldRecords := old("MaxJobs"), old("MaxRecords")
	hdr.SetCounts(distinct, records)
	return fmt.Sprintf("swfsim MaxJobs %d and MaxRecords %d count the output, %d records left out (input header: MaxJobs %s, MaxRecords %s)",
		distinct, records, dropped, oldJobs, oldRecords)
}

// unreadPredictions says, when predicted simulated jobs carry a pred= token
// and the run does not read them, how many and which flag reads them; ""
// otherwise. Only --predictor token reads pred=, and exec hands every token
// to its program, which may.
func unreadPredictions(info policy.Info, opt Options, predicted int) string {
	if predicted == 0 || info.Name == "exec" {
		return ""
	}
	jobs := fmt.Sprintf("%d simulated jobs carry", predicted)
	if predicted == 1 {
		jobs = "1 simulated job carries"
	}
	if slices.Contains(info.Params, "predictor") {
		if opt.Params.Research.Predictor == predict.NameToken {
			return ""
		}
		predictor := opt.Params.Research.Predictor
		if predictor == "" {
			predictor = policy.DefaultPredictor(info.Name)
		}
		return fmt.Sprintf("%s a %s= token (runtime predictions, swfaugment --as-prediction), which this run does not read: %s predicts with predictor %s; --predictor token reads them",
			jobs, policy.KeyPrediction, info.Name, predictor)
	}
	return fmt.Sprintf("%s a %s= token (runtime predictions, swfaugment --as-prediction), which policy %s does not read; only --predictor token reads them (-p easy-p, sjbf or easy++)",
		jobs, policy.KeyPrediction, info.Name)
}

// queuesWithoutJobs lists the queues of order that no job is in.
func queuesWithoutJobs(order [][]int64, jobs []sim.Job) []string {
	if len(order) == 0 {
		return nil
	}
	in := map[int64]bool{}
	for i := range jobs {
		in[int64(jobs[i].Queue)] = true
	}
	var out []string
	for _, g := range order {
		for _, q := range g {
			if !in[q] {
				out = append(out, strconv.FormatInt(q, 10))
			}
		}
	}
	return out
}

// notes are the header lines that say what the simulation did and with which
// semantics, so that the output documents itself.
func notes(info policy.Info, opt Options, procs int64, source string, skipped [sim.NumSkipReasons]int, jobs []sim.Job, wide sim.Unsimulated) []string {
	var out []string
	out = append(out, fmt.Sprintf("swfsim policy %s: %s", info.Name, info.Summary))
	for _, p := range info.Params {
		switch p {
		case "lxfw-weight":
			w := opt.Params.LXFWWeight
			if !opt.Params.UseLXFWWeight && w == 0 {
				w = policy.DefaultLXFWWeight
			}
			out = append(out, "swfsim lxfw-weight "+strconv.FormatFloat(w, 'g', -1, 64)+" per hour of wait")
		case "priority-order":
			if seeds := opt.Params.GA.Seeds; info.Name != "priofifo" && seeds != nil && !slices.Contains(seeds, "priority") {
				// ga without its priority seed reads no order.
				continue
			}
			if len(opt.Params.PriorityOrder) == 0 {
				out = append(out, "swfsim priority-order: ascending queue number, unknown queue (-1) last")
			} else {
				rest := "unlisted queues after, by number; unknown queue (-1) last"
				if slices.ContainsFunc(opt.Params.PriorityOrder, func(g []int64) bool { return slices.Contains(g, -1) }) {
					rest = "unlisted queues after, by number"
				}
				out = append(out, "swfsim priority-order "+policy.FormatPriorityOrder(opt.Params.PriorityOrder)+" (highest first; "+rest+")")
			}
		}
	}
	out = append(out, fmt.Sprintf("swfsim machine %d processors (from %s)", procs, source))
	kill := "kill at requested time (status 0, killed=1)"
	if opt.NoKill {
		kill = "no-kill (jobs run to their real runtime)"
	}
	out = append(out, "swfsim semantics: integer seconds; procs-from "+opt.ProcsFrom.String()+"; estimate field 9, else runtime; "+kill)
	out = append(out, "swfsim order at equal times: ends, then arrivals in file order, then one pass; ties by submit time, then file order")
	strict := "skip jobs that cannot be simulated"
	if opt.Strict {
		strict = "strict"
	}
	out = append(out, "swfsim unsimulable jobs: "+strict)
	for why, n := range skipped {
		if n > 0 {
			out = append(out, fmt.Sprintf("swfsim skipped %d jobs: %s", n, sim.SkipReason(why)))
		}
	}
	k := 0
	for i := range jobs {
		if jobs[i].Killed {
			k++
		}
	}
	out = append(out, fmt.Sprintf("swfsim simulated %d jobs, %d killed at their requested time", len(jobs), k))
	if input, simulated, ok := sim.OfferedLoadWith(jobs, procs, wide); ok {
		// Next to each other, so that a --target-load whose work was cut
		// by kills, or by skipping jobs wider than the machine, shows in
		// the file itself.
		included := ""
		if wide.N > 0 {
			included = fmt.Sprintf(" (%d jobs wider than the machine, not simulated, included)", wide.N)
			if wide.N == 1 {
				included = " (1 job wider than the machine, not simulated, included)"
			}
		}
		out = append(out, fmt.Sprintf("swfsim offered load (processors x runtime per processor-second of the submit span): input %s%s, simulated jobs %s (%d killed at their requested time)",
			strconv.FormatFloat(input, 'f', 4, 64), included, strconv.FormatFloat(simulated, 'f', 4, 64), k))
	}
	return out
}

// write reads the input a second time and writes each simulated record with
// its simulated wait and runtime, and with fair (the fair starts, by job,
// when not made tokens already) its fairstart= token last; skipped records
// are left out (their comment lines are kept).
// lenient must be what load used, so that both reads see the same records.
func write(data chunks, name string, hdr *swf.Header, jobs []sim.Job, which []int32, fair []int64, lenient bool, cause string, out io.Writer) error {
	rd := swf.NewReader(data.reader())
	rd.Name = name
	rd.ReuseRecord = true
	rd.Lenient = lenient
	if _, err := rd.Header(); err != nil {
		return err
	}
	w := swf.NewWriter(out)
	w.Follow(rd)
	w.WriteHeader(hdr)
	var extra []string
	for k := 0; ; k++ {
		sj, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if k >= len(which) {
			return errors.New("swfsim: input changed between reads")
		}
		if which[k] < 0 {
			for _, c := range sj.Comments {
				w.WriteComment(c)
			}
			continue
		}
		j := &jobs[which[k]]
		// Tokens an earlier swfsim run wrote describe that run's schedule,
		// not this one: drop them all, then add this run's.
		for _, key := range ownedTokens {
			sj.DeleteExtra(key)
		}
		sj.WaitTime = j.Start - j.Submit
		sj.RunTime = j.End - j.Start
		if j.Killed {
			sj.Status = swf.StatusFailed
		}
		extra = jobExtra(extra[:0], sj.Extra, j)
		if fair != nil {
			extra = setToken(extra, fairStartKey+strconv.FormatInt(fair[which[k]], 10), len(fairStartKey)-1)
		}
		sj.Extra = extra
		if err := checkBound(name, &sj, cause); err != nil {
			return err
		}
		if err := w.Write(&sj); err != nil {
			return err
		}
	}
	w.WriteTrailer(rd.Trailer())
	return w.Flush()
}

// checkBound refuses an output record that no swfkit tool could read back: a
// schedule that pushes a wait, a run or a fair-start time past swf.MaxTime,
// which only a trace whose times come within a queue's length of the bound
// can do (or an exec program's timers); cause says which.
func checkBound(name string, sj *swf.Job, cause string) error {
	what, v := "", int64(0)
	switch {
	case sj.WaitTime > swf.MaxTime:
		what, v = "wait (field 3)", sj.WaitTime
	case sj.RunTime > swf.MaxTime:
		what, v = "runtime (field 4)", sj.RunTime
	default:
		for _, t := range sj.Extra {
			if rest, ok := strings.CutPrefix(t, "fairstart="); ok {
				if f, err := strconv.ParseInt(rest, 10, 64); err == nil && f > swf.MaxTime {
					what, v = "fair-start time", f
				}
			}
		}
	}
	if what == "" {
		return nil
	}
	return fmt.Errorf("%s:%d: job %d: its simulated %s, %d s, is beyond swfkit's time bound of %d s, so no tool could read the schedule back; %s", name, sj.Line, sj.JobNumber, what, v, int64(swf.MaxTime), cause)
}

// jobExtra appends to dst the extension tokens of j's output line: extra (the
// input's, swfsim's own removed) with killed=1 for a killed job and j.Tokens,
// each set as swf.Job.SetExtra would, into dst, a slice the caller reuses
// from record to record (SetExtra copies the slice and the token, two
// allocations a token).
func jobExtra(dst, extra []string, j *sim.Job) []string {
	dst = append(dst, extra...)
	if j.Killed {
		dst = setToken(dst, "killed=1", len("killed"))
	}
	for _, t := range j.Tokens {
		key, _, ok := strings.Cut(t, "=")
		if !ok {
			t += "="
		}
		dst = setToken(dst, t, len(key))
	}
	return dst
}

// setToken replaces the first token of extra with tok's key (its first
// keyLen bytes), or appends tok.
func setToken(extra []string, tok string, keyLen int) []string {
	key := tok[:keyLen]
	for i, t := range extra {
		if len(t) > keyLen && t[keyLen] == '=' && t[:keyLen] == key {
			extra[i] = tok
			return extra
		}
	}
	return append(extra, tok)
}

// ownedTokens are the extension tokens swfsim writes: killed= (here), bumps=
// and runtotal= (ga-ckpt), trial= (timed-*), price= (--price) and fairstart= (--fair-start).
// They are removed from every input job before this run's are added, so that
// re-simulating a schedule leaves none of the previous run's tokens behind.
var ownedTokens = []string{"killed", "bumps", "runtotal", "trial", "price", "fairstart"}

// chunks holds the input in fixed-size blocks, so that keeping it costs its
// size and no more (io.ReadAll's doubling would leave garbage twice as big).
type chunks [][]byte

const chunkSize = 1 << 20

// readChunks reads r to the end and counts its lines. Only io.EOF ends the
// input: any other error, io.ErrUnexpectedEOF included, is the source's
// (a truncated file) and is returned.
func readChunks(r io.Reader) (chunks, int, error) {
	var c chunks
	lines := 1
	for {
		b := make([]byte, chunkSize)
		n, err := fill(r, b)
		if n > 0 {
			c = append(c, b[:n:n])
			lines += bytes.Count(b[:n], []byte{'\n'})
		}
		if err == io.EOF {
			return c, lines, nil
		}
		if err != nil {
			return nil, 0, err
		}
	}
}

// fill reads into b until it is full or r returns an error, which it returns
// as it is (unlike io.ReadFull, which turns io.EOF into io.ErrUnexpectedEOF).
func fill(r io.Reader, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		m, err := r.Read(b[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

func (c chunks) reader() io.Reader {
	rs := make([]io.Reader, len(c))
	for i, b := range c {
		rs[i] = bytes.NewReader(b)
	}
	return io.MultiReader(rs...)
}

// workload is a trace read for simulation.
type workload struct {
	name    string
	data    chunks
	hdr     *swf.Header
	procs   int64
	source  string
	jobs    []sim.Job
	which   []int32 // per record: index in jobs, or -1 - SkipReason
	skipped [sim.NumSkipReasons]int
	// skippedU counts the skipped jobs that carry a u= token (read only
	// when the run reads u= tokens).
	skippedU int
	killed   int // jobs whose runtime exceeds their estimate
	// partial counts the simulated records that are parts of a partially
	// executed job (status 2, 3 or 4): each is simulated as a job of its own.
	partial int
	// cancelledUnstarted counts the simulated jobs cancelled before they
	// started (status 5, runtime 0): each is simulated as a 0-second job.
	cancelledUnstarted int
	// dependent counts the simulated jobs that name a preceding job (field
	// 17 > 0), a dependency the engine does not simulate.
	dependent int
	// noEstimate counts the simulated jobs without a requested time (field
	// 9 <= 0), whose estimate is their runtime.
	noEstimate int
	// fewerThanAllocated counts the simulated jobs given fewer processors
	// than they were allocated (field 5) in the log, as --procs-from
	// requested and requested-only do when field 8 is smaller; the first
	// such job is kept for the Note.
	fewerThanAllocated int
	firstFewer         struct{ number, procs, allocated int64 }
	// lateSize counts the comments after the first record that give a
	// machine size (MaxProcs, or the label read) other than the one
	// simulated: not header, so not read (cat a.swf b.swf leaves b's
	// header there); the first is kept for the warning.
	lateSize  int
	firstLate struct {
		where, label, value string
	}
	// wide sums the jobs skipped as wider than the machine, whose work
	// the input's offered load counts (swfaugment's definition).
	wide sim.Unsimulated
	// partitions holds the partition numbers (field 16 > 0) of the
	// simulated jobs: the engine simulates one pool, not the partitions.
	partitions map[int64]struct{}
	// predicted counts the simulated jobs that carry a pred= token, read
	// or not: a run that does not read them says so (unreadPredictions).
	predicted int
	numbers   []int64 // job numbers (field 1) of the simulated jobs

	malformed      int // lines skipped by --lenient
	firstMalformed []*swf.ParseError
}

// malformedNote says how many malformed lines --lenient skipped, with the
// first few line numbers.
func (w *workload) malformedNote() string {
	lines := make([]string, len(w.firstMalformed))
	for i, e := range w.firstMalformed {
		lines[i] = strconv.Itoa(e.Line)
	}
	more := ""
	if w.malformed > len(lines) {
		more = ", ..."
	}
	return fmt.Sprintf("skipped %d malformed lines (--lenient; lines %s%s)", w.malformed, strings.Join(lines, ", "), more)
}

// fewerNote says how many simulated jobs got fewer processors than they
// were allocated (field 5), which field gave theirs and which option takes
// field 5; "" when none did.
func (w *workload) fewerNote(from sim.ProcsFrom) string {
	if w.fewerThanAllocated == 0 {
		return ""
	}
	f := w.firstFewer
	what := fmt.Sprintf("%d simulated jobs requested fewer processors (field 8) than they were allocated (field 5) (the first: job %d, %d of %d): they are simulated on their field 8 (--procs-from %s), fewer processors than they held in the log; --procs-from allocated or max takes field 5",
		w.fewerThanAllocated, f.number, f.procs, f.allocated, from)
	if w.fewerThanAllocated == 1 {
		what = fmt.Sprintf("1 simulated job requested fewer processors (field 8) than it was allocated (field 5) (job %d, %d of %d): it is simulated on its field 8 (--procs-from %s), fewer processors than it held in the log; --procs-from allocated or max takes field 5",
			f.number, f.procs, f.allocated, from)
	}
	return what
}

// checkLateSize counts the comments (after the first record: not header)
// that give MaxProcs, or the label the machine size was read from, with
// another value than the size simulated.
func (w *workload) checkLateSize(comments []string, where string) {
	for _, c := range comments {
		label, value, ok := swf.CommentLabel(c)
		if !ok || !strings.EqualFold(label, "MaxProcs") && !strings.EqualFold(label, w.source) {
			continue
		}
		one := swf.Header{Lines: []swf.HeaderLine{{Label: label, Value: value}}}
		if n, _, err := one.Int(label); err == nil && n == w.procs {
			continue
		}
		if w.lateSize == 0 {
			w.firstLate.where, w.firstLate.label, w.firstLate.value = where, label, value
		}
		w.lateSize++
	}
}

// lateSizeNote says that comments after the first record give another
// machine size, not read; "" when none does.
func (w *workload) lateSizeNote() string {
	if w.lateSize == 0 {
		return ""
	}
	f := w.firstLate
	what := fmt.Sprintf("a comment %s gives %s %s, not read", f.where, f.label, f.value)
	if w.lateSize > 1 {
		what = fmt.Sprintf("%d comments after the first record give another machine size, not read (the first, %s: %s %s)", w.lateSize, f.where, f.label, f.value)
	}
	return fmt.Sprintf("%s: the header ends at the first record and swfsim simulates %d processors (from %s); traces joined with cat? simulate each, or give the machine with --procs",
		what, w.procs, w.source)
}

// noEstimateNote says that n of the total simulated jobs have no requested
// time, in the singular for one and as "all" when every job lacks one.
func noEstimateNote(n, total int) string {
	const field = " no requested time (field 9 -1 or 0): "
	const hint = "; swfaugment --estimate MODEL writes field 9 from a model (e.g. uniform:1,3, Mu'alem & Feitelson)"
	many := "have" + field + "their estimate is their runtime, exact as no user's is (a policy that backfills on estimates, not predictions, backfills them perfectly; none is killed)" + hint
	one := "has" + field + "its estimate is its runtime, exact as no user's is (a policy that backfills on estimates, not predictions, backfills it perfectly; it is never killed)" + hint
	switch {
	case n == 1 && total == 1:
		return "the only simulated job " + one
	case n == 1:
		return fmt.Sprintf("1 of %d simulated jobs %s", total, one)
	case n == total:
		return fmt.Sprintf("all %d simulated jobs %s", n, many)
	}
	return fmt.Sprintf("%d of %d simulated jobs %s", n, total, many)
}

// dropped is the number of input records left out of the output, malformed
// lines skipped by --lenient included.
func (w *workload) dropped() int {
	n := w.malformed
	for _, k := range w.skipped {
		n += k
	}
	return n
}

// distinct is the number of distinct job numbers among the simulated jobs.
func (w *workload) distinct() int {
	s := slices.Clone(w.numbers)
	slices.Sort(s)
	return len(slices.Compact(s))
}

// load reads and parses the whole input and converts its records.
// tokens, when not nil, collects the u=/ckpt=/pred= tokens of the simulated jobs.
func load(in io.Reader, opt Options, tokens *jobTokens) (*workload, error) {
	name := opt.Input
	if name == "" || name == "-" {
		name = "<stdin>"
	}
	data, lines, err := readChunks(in)
	if err != nil {
		return nil, cmdio.InFile(name, err)
	}
	rd := swf.NewReader(data.reader())
	rd.Name = name
	rd.ReuseRecord = true
	rd.Lenient = opt.Lenient
	hdr, err := rd.Header()
	if err != nil {
		return nil, err
	}
	warn := opt.Warn
	if warn == nil {
		warn = io.Discard
	}
	if err := cmdio.CheckRecords(rd, "swfsim", warn); err != nil {
		return nil, err
	}
	// A missing machine size is reported after the records, so that a file
	// that is not SWF at all gets its parse error instead.
	procs, source, sizeErr := machineSize(hdr, opt.Procs, name)
	if opt.Procs == 0 {
		// MaxProcs is read first: given twice with different values it is
		// ambiguous even when its first value (0, -1) sends swfsim on to
		// MaxNodes; MaxNodes is checked when it gives the size.
		labels := []string{"MaxProcs"}
		if source == "MaxNodes" {
			labels = append(labels, "MaxNodes")
		}
		for _, label := range labels {
			twice, err := sizeTwice(hdr, label, name)
			if err != nil {
				sizeErr = err
				break
			}
			if twice != "" && sizeErr == nil {
				fmt.Fprintf(warn, "swfsim: warning: %s\n", twice)
			}
		}
	}
	if sizeErr != nil {
		procs = math.MaxInt64
	}

	w := &workload{name: name, data: data, hdr: hdr, procs: procs, source: source,
		jobs: make([]sim.Job, 0, lines), which: make([]int32, 0, lines), // lines bounds the records
		partitions: map[int64]struct{}{}}
	for {
		sj, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, cmdio.ReadError(rd, "swfsim", err)
		}
		if len(sj.Comments) > 0 && opt.Procs == 0 && sizeErr == nil {
			w.checkLateSize(sj.Comments, fmt.Sprintf("before the record on line %d", sj.Line))
		}
		j, why := sim.FromSWF(&sj, procs, opt.ProcsFrom)
		if why != sim.NotSkipped {
			if opt.Strict {
				return nil, fmt.Errorf("%s:%d: job %d cannot be simulated: %s (--strict)", name, sj.Line, sj.JobNumber, why)
			}
			w.skipped[why]++
			if why == sim.SkipTooWide {
				w.wide.Add(sj.SubmitTime, opt.ProcsFrom.Procs(&sj), sj.RunTime)
			}
			w.which = append(w.which, -1-int32(why))
			if tokens != nil && tokens.checkU {
				if _, ok := sj.ExtraValue(utility.Key); ok {
					w.skippedU++
				}
			}
			continue
		}
		if j.Runtime > j.Estimate {
			w.killed++
		}
		if sj.Status >= 2 && sj.Status <= 4 {
			w.partial++
		}
		if sj.Status == swf.StatusCancelled && sj.RunTime == 0 {
			w.cancelledUnstarted++
		}
		if sj.PrecedingJob > 0 {
			w.dependent++
		}
		if sj.RequestedTime <= 0 {
			w.noEstimate++
		}
		if int64(j.Procs) < sj.AllocatedProcs {
			if w.fewerThanAllocated == 0 {
				w.firstFewer.number, w.firstFewer.procs, w.firstFewer.allocated = sj.JobNumber, int64(j.Procs), sj.AllocatedProcs
			}
			w.fewerThanAllocated++
		}
		if sj.Partition > 0 {
			if _, ok := w.partitions[sj.Partition]; !ok {
				w.partitions[sj.Partition] = struct{}{}
			}
		}
		if _, ok := sj.ExtraValue(policy.KeyPrediction); ok {
			w.predicted++
		}
		w.which = append(w.which, int32(len(w.jobs)))
		w.jobs = append(w.jobs, j)
		w.numbers = append(w.numbers, sj.JobNumber)
		if r := opt.Params.Exec.Records; r != nil {
			r.Add(&sj)
		}
		if tokens != nil {
			if err := tokens.add(&sj, name); err != nil {
				return nil, err
			}
		}
	}
	if opt.Procs == 0 && sizeErr == nil {
		w.checkLateSize(rd.Trailer(), "after the last record")
	}
	// Said once: write reads the same bytes again.
	cmdio.WarnUnterminated(rd, "swfsim", warn)
	if err := cmdio.AllMalformed(rd, "swfsim"); err != nil {
		return nil, err
	}
	if sizeErr != nil {
		return nil, sizeErr
	}
	w.malformed, w.firstMalformed = rd.Malformed()
	return w, nil
}

// countFalse returns how many of bs are false.
func countFalse(bs []bool) int {
	n := 0
	for _, b := range bs {
		if !b {
			n++
		}
	}
	return n
}

// unmodelledNotes says, in order, what the engine does not model of the
// simulated jobs (simulated of them), each a warning and a Note of Simulate.
func (w *workload) unmodelledNotes(procsFrom sim.ProcsFrom, simulated int) []string {
	var out []string
	// The parts of a partially executed job (a Preemption: Yes log) are
	// records of their own, each with the job's submit time: simulated
	// one by one, they offer the machine more jobs and more work than the
	// log's jobs, as swfstat warns when it summarizes them.
	if w.partial > 0 {
		out = append(out, fmt.Sprintf("%d records are parts of partially executed jobs (status 2, 3 or 4), each simulated as a job of its own (more jobs and work than the log's); to simulate each job once, merge them first: swfclean --rules default,merge_partial", w.partial))
	}
	// A job cancelled before it started never ran (the archive's convention,
	// swfclean's cancelled_unstarted): simulated, it is a 0-second job that
	// waits for all its processors and holds back the jobs behind it.
	if w.cancelledUnstarted > 0 {
		text := fmt.Sprintf("%d simulated jobs were cancelled before they started (status 5, runtime 0), each simulated as a 0-second job that waits for its processors like any other, though it never ran; to leave them out, drop them first: swfclean --rules cancelled_unstarted (a default rule)", w.cancelledUnstarted)
		if w.cancelledUnstarted == 1 {
			text = "1 simulated job was cancelled before it started (status 5, runtime 0), simulated as a 0-second job that waits for its processors like any other, though it never ran; to leave it out, drop it first: swfclean --rules cancelled_unstarted (a default rule)"
		}
		out = append(out, text)
	}
	// Fields 17 and 18 (preceding job, think time) say that a job was
	// submitted only after another ended: the engine submits every job at
	// its field 2 (an open-loop replay), so a trace from a model with
	// feedback is not simulated as its model meant. Said for exec too (its
	// program gets both fields, but the arrivals are the engine's), so that
	// its header differs from a built-in policy's only in the policy notes.
	if w.dependent > 0 {
		out = append(out, fmt.Sprintf("%s a preceding job (field 17, think time field 18): swfsim does not simulate dependencies; every job is submitted at its field 2, however late the job it names ends in the simulated schedule",
			cmdio.Counted(w.dependent, "simulated job names", "simulated jobs name")))
	}
	// A job without a requested time gets its runtime as its estimate
	// (DESIGN.md): exact, as no user's is, so a policy that backfills on
	// estimates does it perfectly (easy++ and sjbf backfill on predictions,
	// which stay inexact) and it is never killed; NASA-iPSC and lublin_256
	// have none at all. The same words for every policy, exec and fcfs
	// too, so that runs differ only in their policy notes.
	if w.noEstimate > 0 {
		out = append(out, noEstimateNote(w.noEstimate, simulated))
	}
	// Field 16 puts jobs on partitions of the machine (LLNL-Atlas's four,
	// CEA-Curie's node types, LCG's sites): the engine has one
	// pool of procs processors that every job may use (exec's too: its
	// program gets field 16, but not a machine per partition).
	if len(w.partitions) > 1 {
		out = append(out, fmt.Sprintf("simulated jobs are in %d partitions (field 16): swfsim simulates one machine of %d processors (from %s) that any job may use, not the partitions; to simulate one partition, keep its jobs and give its size: swfclean --keep 'partition=N' FILE | swfsim --procs SIZE -p POLICY",
			len(w.partitions), w.procs, w.source))
	}
	// A job whose request (field 8) is below what it was allocated (field
	// 5; CEA-Curie's sample has 3745 such jobs) is simulated, under the
	// default --procs-from requested, on fewer processors than it held:
	// its work and the machine's load shrink without a word otherwise.
	if text := w.fewerNote(procsFrom); text != "" {
		out = append(out, text)
	}
	if text := w.lateSizeNote(); text != "" {
		out = append(out, text)
	}
	return out
}
