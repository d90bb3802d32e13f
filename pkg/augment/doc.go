// Package augment prepares workloads for scheduling studies: it adds utility
// functions (Lee 2009, ch. 2.6) and checkpoint intervals (Lee ch. 6) to jobs,
// replaces runtime estimates with controlled errors (Guim, Corbalan & Labarta
// 2007, sections 3.2-3.3) or the models of Mu'alem & Feitelson, and scales the
// load by compressing inter-arrival times (Srinivasan et al. 2002, section 4.2).
//
// Conventions:
//
//   - Every operation works on a whole trace ([]swf.Job, in file order), because
//     several need trace-wide statistics (percentile bounds, queue sets, size
//     distributions) before they touch the first job. Each also runs over a
//     trace streamed twice, which is then never held: a survey (QueueSurvey,
//     CheckpointSurvey, AnswersSurvey, BoundsSurvey, LoadSurvey) sees every job
//     first, then the operation (UtilityGenerator, CheckpointModel,
//     AnswersMarker, Estimator, LoadScaler) takes the same jobs again, in the
//     same order, one Apply each. The slice functions are exactly these two
//     passes over the slice. A survey keeps at most a few numbers per job (8
//     bytes for the checkpoint model, 24 for the bounds).
//   - Times are integer seconds. A job's processors are field 8 when > 0, else
//     field 5; its runtime is field 4; its requested time is field 9 when > 0,
//     else its runtime (the toolkit's conventions, see DESIGN.md). -1 is unknown.
//   - Randomness comes only from the *rand.Rand (math/rand/v2) passed in; NewRand
//     derives an independent stream per operation from one seed, so enabling one
//     operation never changes another's output. Draws happen in file order and
//     each job consumes the same number of draws whatever branch it takes, so a
//     change to one job's parameters does not shift every later job's draws
//     (GenerateUtility takes one draw a job, seeding the job's own streams for
//     its start value, decay model and shape).
//   - Each operation returns a report whose Notes() are the "; Note:" header lines
//     that record its parameters and what it computed from the trace.
//   - Jobs an operation cannot handle (unknown runtime or processors) are left
//     unchanged and counted in its report, never dropped.
//   - Extension tokens written: u= (utility), ckpt= (checkpoint interval, s),
//     est0= (field 9 before the first estimate transform; an existing est0= is kept).
package augment
