// Package predict holds runtime predictors and prediction correctors for
// schedulers that use system-generated predictions instead of user estimates
// (Tsafrir, Etsion & Feitelson, "Backfilling using system-generated
// predictions rather than user runtime estimates", IEEE TPDS 18(6), 2007;
// summarised in ../shared/specs/easy-plus-plus.md).
//
// Conventions:
//   - Times are integer seconds.
//   - A Predictor is told about every job when it is submitted (Predict) and
//     when it terminates (Terminated), in simulated-time order. Its answer is
//     used inside the scheduler only: a job is still killed at its user
//     estimate, so predictions never exceed the estimate except for the Exact
//     oracle, which returns the runtime the caller says the job will run.
//   - Predictions are at least 1 s when the estimate is at least 1 s, so a
//     predicted end always lies in the future of the job's start and a
//     correction event has a moment to fire.
//   - A Corrector raises the prediction of a job that is still running when it
//     reaches its predicted end. It returns false when it has no higher value
//     (the job has reached its user estimate); the scheduler then treats the
//     job as it treats any job running past its estimate.
//   - Predictors keep per-user state and are not safe for concurrent use; build
//     one per simulation with New.
package predict
