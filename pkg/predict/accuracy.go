package predict

import "fmt"

// Accuracy accumulates how well predictions (and, for comparison, the user
// estimates) matched the runtimes jobs really ran. The zero value is ready.
type Accuracy struct {
	Jobs           int64 // jobs added
	Underpredicted int64 // prediction < actual runtime
	AbsErrorSum    int64 // sum of |prediction - actual|, seconds
	AbsEstimateSum int64 // sum of |estimate - actual|, seconds
	Corrections    int64 // corrections made
	CorrectedJobs  int64 // jobs corrected at least once
}

// Add records one finished job's first prediction, user estimate and actual runtime.
func (a *Accuracy) Add(prediction, estimate, actual int64) {
	a.Jobs++
	if prediction < actual {
		a.Underpredicted++
	}
	a.AbsErrorSum += abs(prediction - actual)
	a.AbsEstimateSum += abs(estimate - actual)
}

// Corrected records one correction; first says whether it is the job's first.
func (a *Accuracy) Corrected(first bool) {
	a.Corrections++
	if first {
		a.CorrectedJobs++
	}
}

// UnderpredictedShare is the share of jobs whose prediction was below their runtime.
func (a *Accuracy) UnderpredictedShare() float64 { return ratio(a.Underpredicted, a.Jobs) }

// MeanAbsError is the mean |prediction - actual| in seconds.
func (a *Accuracy) MeanAbsError() float64 { return ratio(a.AbsErrorSum, a.Jobs) }

// MeanAbsEstimateError is the mean |estimate - actual| in seconds.
func (a *Accuracy) MeanAbsEstimateError() float64 { return ratio(a.AbsEstimateSum, a.Jobs) }

// String summarises the accuracy in one line for an SWF Note.
func (a *Accuracy) String() string {
	return fmt.Sprintf("predictions for %d jobs: %.2f%% underpredicted, mean absolute error %.0f s (user estimates: %.0f s); %d corrections of %d jobs",
		a.Jobs, 100*a.UnderpredictedShare(), a.MeanAbsError(), a.MeanAbsEstimateError(), a.Corrections, a.CorrectedJobs)
}

func ratio(n, d int64) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
