package price

import (
	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/utility"
)

// First returns each job's first price: its utility at its simulated
// turnaround (End - Submit). A job that never finished pays 0.
func First(jobs []sim.Job, util []utility.Func) []float64 {
	out := make([]float64, len(jobs))
	for i := range jobs {
		if jobs[i].End >= 0 {
			out[i] = util[i].Value(float64(jobs[i].End - jobs[i].Submit))
		}
	}
	return out
}
