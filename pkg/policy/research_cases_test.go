package policy

// Hand-computed scenarios for the research policies. Each comment walks
// through the schedule; starts are the start of the run that finishes.

// starveJobs, on 4 processors: a narrow job A runs, a wide job W (all 4
// processors) arrives behind it, and narrow jobs B and C arrive later.
var starveJobs = []rjob{
	{submit: 0, procs: 2, runtime: 100, estimate: 100},  // A
	{submit: 1, procs: 4, runtime: 10, estimate: 10},    // W
	{submit: 2, procs: 2, runtime: 100, estimate: 100},  // B
	{submit: 50, procs: 2, runtime: 100, estimate: 100}, // C
}

var selectiveCases = []rcase{
	{
		// Conservative: W reserved at 100 (A's end); B's [2,102) would cross
		// it, so B is reserved after W, at 110, and C (at 50) beside B.
		name: "starve/reference", policy: "conservative", procs: 4, jobs: starveJobs,
		start: []int64{0, 100, 110, 110}, end: []int64{100, 110, 210, 210},
	},
	{
		// Threshold 0: every XFactor (>= 1) exceeds it at arrival, so every job
		// is reserved at arrival in arrival order: conservative.
		name: "threshold 0 is conservative", policy: "selective", procs: 4, jobs: starveJobs,
		params: ResearchParams{Threshold: "0"},
		start:  []int64{0, 100, 110, 110}, end: []int64{100, 110, 210, 210},
		note: []string{"fixed threshold 0.0000", "4 jobs got a reservation"},
	},
	{
		// Threshold 100: W never reaches it while it matters. B starts at 2 (no
		// reservation blocks it), C at 100 when A ends (W still does not fit),
		// W only at 200 when C ends.
		name: "threshold 100 starves W", policy: "selective", procs: 4, jobs: starveJobs,
		params: ResearchParams{Threshold: "100"},
		start:  []int64{0, 200, 2, 100}, end: []int64{100, 210, 102, 200},
		note: []string{"0 jobs got a reservation"},
	},
	{
		// Threshold 3: W's XFactor (wait+10)/10 passes 3 at wait 21 (t=22), a
		// quiet moment; at the next pass (t=50) it gets the earliest
		// reservation, 102 (A and B end at 100 and 102). B started at 2 with
		// XFactor 1. At 100 C fits on 2 processors but [100,200) would cross
		// W's reservation; it starts when W ends, 112.
		name: "threshold 3 promotes W", policy: "selective", procs: 4, jobs: starveJobs,
		params: ResearchParams{Threshold: "3"},
		start:  []int64{0, 102, 2, 112}, end: []int64{100, 112, 102, 212},
		note: []string{"fixed threshold 3.0000", "1 jobs got a reservation"},
	},
	{
		// Auto: the conservative run above gives bounded slowdowns A 1, W
		// (99+10)/10 = 10.9, B (108+100)/100 = 2.08, C (60+100)/100 = 1.6, all
		// well estimated: threshold 15.58/4 = 3.895, which W passes at wait 29
		// (t=30); as with threshold 3 it is reserved at the pass at 50.
		name: "auto threshold", policy: "selective", procs: 4, jobs: starveJobs,
		start: []int64{0, 102, 2, 112}, end: []int64{100, 112, 102, 212},
		note: []string{"auto threshold", "of 4 jobs", "3.8950", "1 jobs got a reservation"},
	},
	{
		// Adaptive: no job has completed before 100, so the threshold is
		// infinite and B starts at 2. A completes at 100 with bounded slowdown
		// 1: threshold 1. W (XFactor 10.9) is reserved at 102 and C (1.5) after
		// it at 112. Final average (A 1, B 1, W (101+10)/10 = 11.1, C
		// (62+100)/100 = 1.62) = 14.72/4 = 3.68.
		name: "adaptive", policy: "selective", procs: 4, jobs: starveJobs,
		params: ResearchParams{Threshold: "adaptive"},
		start:  []int64{0, 102, 2, 112}, end: []int64{100, 112, 102, 212},
		note: []string{"adaptive threshold (1 x", "final value 3.6800", "2 jobs got a reservation"},
	},
	{
		// Scaled-adaptive 1.5: at 100 the threshold is 1.5; C's XFactor 1.5
		// does not exceed it, W's does. At 102 (B done, average still 1) C has
		// 1.52 and is reserved after W, at 112: the same schedule, and the final
		// threshold is 1.5 x 3.68 = 5.52.
		name: "scaled-adaptive", policy: "selective", procs: 4, jobs: starveJobs,
		params: ResearchParams{Threshold: "scaled-adaptive:1.5"},
		start:  []int64{0, 102, 2, 112}, end: []int64{100, 112, 102, 212},
		note: []string{"adaptive threshold (1.5 x", "final value 5.5200", "2 jobs got a reservation"},
	},
	{
		// Selective-D with narrow = at most 2 processors: W is short-wide with
		// threshold 1, the narrow jobs have 100. At 1 W's XFactor is exactly 1
		// (not above); at the pass at 2 it is 1.1, W is reserved at 100 before B
		// may start, B's [2,102) crosses the reservation, and B and C start when
		// W ends at 110: conservative's schedule.
		name: "per-category thresholds", policy: "selective-d", procs: 4, jobs: starveJobs,
		params: ResearchParams{Threshold: "SN=100,SW=1,LN=100,LW=100", NarrowMax: 2},
		start:  []int64{0, 100, 110, 110}, end: []int64{100, 110, 210, 210},
		note: []string{"SN 100.0000 SW 1.0000 LN 100.0000 LW 100.0000", "narrow: <= 2 processors", "1 jobs got a reservation"},
	},
	{
		// The same thresholds given positionally.
		name: "positional thresholds", policy: "selective-d", procs: 4, jobs: starveJobs,
		params: ResearchParams{Threshold: "100,1,100,100", NarrowMax: 2},
		start:  []int64{0, 100, 110, 110},
	},
	{
		// Default boundaries (narrow <= 8 processors): W is narrow too, threshold
		// 100, and starves as with selective at 100.
		name: "default boundaries", policy: "selective-d", procs: 4, jobs: starveJobs,
		params: ResearchParams{Threshold: "100,1,100,100"},
		start:  []int64{0, 200, 2, 100},
	},
}

// fig2Jobs is the instance of Thebe et al., section 2.1 and Fig. 2 (100
// processors, 90 s trials, FCFS), with job C's runtime given.
func fig2Jobs(runtimeC int64) []rjob {
	return []rjob{
		{submit: 0, procs: 80, runtime: 300, estimate: 1000},        // A
		{submit: 100, procs: 100, runtime: 40, estimate: 1000},      // B
		{submit: 110, procs: 20, runtime: runtimeC, estimate: 1000}, // C
	}
}

// fig3Jobs is the instance of Thebe et al., section 2.1 and Fig. 3.
var fig3Jobs = []rjob{
	{submit: 0, procs: 70, runtime: 90, estimate: 90},    // A
	{submit: 5, procs: 70, runtime: 60, estimate: 60},    // B
	{submit: 10, procs: 50, runtime: 200, estimate: 200}, // C
	{submit: 20, procs: 20, runtime: 140, estimate: 140}, // D
	{submit: 25, procs: 30, runtime: 40, estimate: 40},   // E
}

var timedCases = []rcase{
	{
		// Fig. 2, C of length 150: A's trial ends at 90 with nothing else
		// waiting, so FCFS picks A and it continues. B (100 processors) cannot
		// start its trial; C starts its trial at 110; at 200 it ends, but FCFS
		// wants B, which cannot start before 300, so C keeps running and
		// completes at 260. B gets its trial at 300 and finishes within it.
		name: "Fig. 2, C completes in its extension", policy: "timed-fcfs", procs: 100, jobs: fig2Jobs(150),
		start: []int64{0, 300, 110}, end: []int64{300, 340, 260},
		note: []string{"3 trial runs", "1 jobs finished within their trial", "1 after it before being needed", "1 continued", "0 kills"},
	},
	{
		// Fig. 2, C of length 250: at 300 B's trial needs C's processors, so C
		// is killed after 190 s (20 x 190 = 3800 processor-seconds lost) and
		// restarts at 340 when B is done.
		name: "Fig. 2, C killed at 300", policy: "timed-fcfs", procs: 100, jobs: fig2Jobs(250),
		start: []int64{0, 300, 340}, end: []int64{300, 340, 590},
		note: []string{"1 kills losing 3800 processor-seconds"},
	},
	{
		// Fig. 3, schedule (b): A's trial 0-90 completes it; D's trial 20-110;
		// at 90 B's trial starts (completes at 150); at 110 D's trial ends and
		// E's trial takes D's processors (D killed, 20 x 90 lost) and completes
		// at 150. At 150 C starts its trial; D has had its trial but waits until
		// C commits: at 240 C's trial ends, FCFS commits C (it continues) and
		// then D.
		name: "Fig. 3 (b)", policy: "timed-fcfs", procs: 100, jobs: fig3Jobs,
		start: []int64{0, 90, 150, 240, 110}, end: []int64{90, 150, 350, 380, 150},
		note: []string{"5 trial runs", "3 jobs finished within their trial", "1 continued", "1 kills losing 1800"},
	},
	{
		// Plain FCFS on Fig. 3: B at 90, then C, D and E together at 150.
		name: "Fig. 3 reference", policy: "fcfs", procs: 100, jobs: fig3Jobs,
		start: []int64{0, 90, 150, 150, 150}, end: []int64{90, 150, 350, 290, 190},
	},
	{
		// --trial 0: no trial runs, exactly FCFS.
		name: "Fig. 3, trial 0 is fcfs", policy: "timed-fcfs", procs: 100, jobs: fig3Jobs,
		params: ResearchParams{TrialSet: true},
		start:  []int64{0, 90, 150, 150, 150}, end: []int64{90, 150, 350, 290, 190},
		note: []string{"trial 0 s; 0 trial runs"},
	},
	{
		// Fig. 3 under timed-EASY: as under timed-FCFS until 150, when C starts
		// its trial; C, the head, cannot commit before its trial ends at 240,
		// when 100 processors are free for it (shadow 240, 50 extra). D, whose
		// trial was killed, needs 20 <= 50 extra processors and is backfilled at
		// 150: schedule (a) of Fig. 3, by EASY's own decision.
		name: "Fig. 3 under EASY", policy: "timed-easy", procs: 100, jobs: fig3Jobs,
		start: []int64{0, 90, 150, 150, 110}, end: []int64{90, 150, 350, 290, 150},
	},
	{
		// Trial runs may break the EASY head's reservation. A runs (its trial
		// ends at 90 and it continues); W (all 10 processors) waits for 1000. Y
		// arrives at 950 and starts its trial on the 4 free processors, so at
		// 1000 W cannot start; at 1040 Y's trial ends, W's trial kills Y (4 x 90
		// lost) and completes W at 1120; Y restarts then.
		name: "trial breaks the head's reservation", policy: "timed-easy", procs: 10,
		jobs: []rjob{
			{submit: 0, procs: 6, runtime: 1000, estimate: 1000},
			{submit: 100, procs: 10, runtime: 80, estimate: 80},
			{submit: 950, procs: 4, runtime: 500, estimate: 500},
		},
		start: []int64{0, 1040, 1120}, end: []int64{1000, 1120, 1620},
		note: []string{"1 kills losing 360 processor-seconds"},
	},
	{
		// The same jobs under EASY: W at its shadow time 1000, Y after it.
		name: "reservation reference", policy: "easy", procs: 10,
		jobs: []rjob{
			{submit: 0, procs: 6, runtime: 1000, estimate: 1000},
			{submit: 100, procs: 10, runtime: 80, estimate: 80},
			{submit: 950, procs: 4, runtime: 500, estimate: 500},
		},
		start: []int64{0, 1000, 1080},
	},
	{
		// Lazy termination kills the oldest expired trial first. Z commits at
		// 90; H (10 processors) blocks FCFS; X and Y run trials from 2 and 3,
		// which end at 92 and 93. Q's trial at 100 needs 4 processors: X (ended
		// 92) is killed, not Y, which then completes at 1003 in its extension.
		// H gets its trial at 5000, continues at 5090, and X restarts at 5100.
		name: "oldest expired killed first", policy: "timed-fcfs", procs: 10,
		jobs: []rjob{
			{submit: 0, procs: 2, runtime: 5000, estimate: 5000}, // Z
			{submit: 1, procs: 10, runtime: 100, estimate: 100},  // H
			{submit: 2, procs: 4, runtime: 1000, estimate: 2000}, // X
			{submit: 3, procs: 4, runtime: 1000, estimate: 2000}, // Y
			{submit: 100, procs: 4, runtime: 50, estimate: 50},   // Q
		},
		start: []int64{0, 5000, 5100, 3, 100}, end: []int64{5000, 5100, 6100, 1003, 150},
		note: []string{"5 trial runs", "1 jobs finished within their trial", "1 after it", "2 continued", "1 kills losing 392 processor-seconds"},
	},
	{
		// A job whose estimate is shorter than the trial is killed at its
		// estimate during the trial (60), like any job; the next gets its trial.
		name: "killed at estimate in trial", policy: "timed-fcfs", procs: 10,
		jobs: []rjob{
			{submit: 0, procs: 5, runtime: 200, estimate: 60},
			{submit: 10, procs: 10, runtime: 30, estimate: 30},
		},
		start: []int64{0, 60}, end: []int64{60, 90},
		note: []string{"2 jobs finished within their trial"},
	},
}

// sjbfJobs on 10 processors: H (all processors) waits for A's end at 100;
// when B ends at 20, L (70 s) and S (30 s) can both backfill on 4 processors,
// but only one at a time.
var sjbfJobs = []rjob{
	{submit: 0, procs: 6, runtime: 100, estimate: 100, user: 1}, // A
	{submit: 0, procs: 4, runtime: 20, estimate: 20, user: 2},   // B
	{submit: 1, procs: 10, runtime: 10, estimate: 10, user: 3},  // H
	{submit: 2, procs: 4, runtime: 70, estimate: 70, user: 4},   // L
	{submit: 3, procs: 4, runtime: 30, estimate: 30, user: 5},   // S
}

// historyJobs: user 1's two first jobs run 10 s and 20 s of their 1000 s
// estimates, so its job X (50 s of 1000) is predicted (10+20)/2 = 15 s.
var historyJobs = []rjob{
	{submit: 0, procs: 2, runtime: 10, estimate: 1000, user: 1},  // U1a
	{submit: 0, procs: 2, runtime: 20, estimate: 1000, user: 1},  // U1b
	{submit: 30, procs: 6, runtime: 100, estimate: 100, user: 2}, // A
	{submit: 31, procs: 10, runtime: 10, estimate: 10, user: 3},  // H
	{submit: 32, procs: 4, runtime: 50, estimate: 1000, user: 1}, // X
}

// ladderJobs: X is predicted 15 s, starts at 31 and really runs 50 s; K (90 s)
// arrives at 50, after X's prediction was corrected at 46.
var ladderJobs = []rjob{
	{submit: 0, procs: 2, runtime: 10, estimate: 1000, user: 1},  // U1a
	{submit: 0, procs: 2, runtime: 20, estimate: 1000, user: 1},  // U1b
	{submit: 30, procs: 4, runtime: 100, estimate: 100, user: 2}, // A
	{submit: 31, procs: 4, runtime: 50, estimate: 1000, user: 1}, // X
	{submit: 32, procs: 10, runtime: 10, estimate: 10, user: 3},  // H
	{submit: 50, procs: 2, runtime: 90, estimate: 90, user: 4},   // K
}

var predictiveCases = []rcase{
	{
		// EASY: at 20 (B done) H's shadow is 100, extra 0; L (ends 90) is tried
		// first and fits; S (120 > 100) waits for H, until 110.
		name: "sjbf reference", policy: "easy", procs: 10, jobs: sjbfJobs,
		start: []int64{0, 0, 100, 20, 110}, end: []int64{100, 20, 110, 90, 140},
	},
	{
		// SJBF: at 20 S (30 s) is tried before L (70 s) and takes the 4
		// processors; at 50 L would end at 120 > 100 and waits until 110.
		name: "shortest backfilled first", policy: "sjbf", procs: 10, jobs: sjbfJobs,
		start: []int64{0, 0, 100, 110, 20}, end: []int64{100, 20, 110, 180, 50},
	},
	{
		// EASY++ without any history (distinct users) predicts the estimates:
		// the SJBF schedule.
		name: "easy++ without history is sjbf", policy: "easy++", procs: 10, jobs: sjbfJobs,
		start: []int64{0, 0, 100, 110, 20},
	},
	{
		// EASY-P with the user estimate as predictor is EASY.
		name: "predictor estimate is easy", policy: "easy-p", procs: 10, jobs: sjbfJobs,
		params: ResearchParams{Predictor: "estimate"},
		start:  []int64{0, 0, 100, 20, 110},
	},
	{
		// EASY: X's estimate (32+1000) passes H's shadow 130: X waits for H.
		name: "history reference", policy: "easy", procs: 10, jobs: historyJobs,
		start: []int64{0, 0, 30, 130, 140},
	},
	{
		// EASY-P (last two): X is predicted 15 s, 32+15 <= 130, so it backfills
		// at 32. At 47 it is still running: corrected to its estimate. It ends
		// at 82, and H starts at 130 as reserved. First predictions 1000, 1000,
		// 100, 10, 15 against runtimes 10, 20, 100, 10, 50: one
		// underprediction in five, mean absolute error (990+980+35)/5 = 401 s,
		// against (990+980+950)/5 = 584 s for the estimates.
		name: "last two predicts a backfill", policy: "easy-p", procs: 10, jobs: historyJobs,
		start: []int64{0, 0, 30, 130, 32}, end: []int64{10, 20, 130, 140, 82},
		note: []string{"predictor last2", "corrector estimate", "20.00% underpredicted", "mean absolute error 401 s (user estimates: 584 s)", "1 corrections of 1 jobs"},
	},
	{
		// Corrector estimate: at 46 X's predicted end moves to 1031, so H's
		// shadow is 1031 and K (50+90 = 140) backfills at 50; H then starts
		// when K ends, at 140.
		name: "corrector estimate", policy: "easy-p", procs: 10, jobs: ladderJobs,
		start: []int64{0, 0, 30, 31, 140, 50},
	},
	{
		// Corrector ladder: at 46 (15 s elapsed) X's prediction becomes 60 s
		// (end 91), H's shadow stays at A's end, 130, and K (140 > 130, no
		// extra processors) waits until H is done at 140.
		name: "corrector ladder", policy: "easy-p", procs: 10, jobs: ladderJobs,
		params: ResearchParams{Corrector: "ladder"},
		start:  []int64{0, 0, 30, 31, 130, 140},
		note:   []string{"corrector ladder:1m,5m", "1 corrections of 1 jobs"},
	},
	{
		// Corrector double: 15 -> 30 at 46 (end 61), 30 -> 60 at 61 (end 91);
		// K at 50 sees shadow 130 as with the ladder.
		name: "corrector double", policy: "easy-p", procs: 10, jobs: ladderJobs,
		params: ResearchParams{Corrector: "double"},
		start:  []int64{0, 0, 30, 31, 130, 140},
		note:   []string{"corrector double", "2 corrections of 1 jobs"},
	},
	{
		// A custom ladder 20s,1000s: at 46 X is predicted 20 s (end 51), so K
		// at 50 sees shadow 130 and waits; at 51 X is corrected to the next
		// rung, 1000 s (end 1031), the shadow moves to 1031 and K (51+90 = 141)
		// backfills. H waits for K's end, 141.
		name: "custom ladder", policy: "easy-p", procs: 10, jobs: ladderJobs,
		params: ResearchParams{Corrector: "ladder", Ladder: []int64{20, 1000}},
		start:  []int64{0, 0, 30, 31, 141, 51},
		note:   []string{"ladder:20s,1000s", "2 corrections of 1 jobs"},
	},
}
