package stats_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/swfkit/swfkit/pkg/stats"
	"github.com/swfkit/swfkit/pkg/swf"
)

func ExamplePercentile() {
	waits := []float64{0, 30, 75, 90, 960} // sorted
	for _, p := range []float64{25, 50, 98, 100} {
		fmt.Printf("p%g = %g\n", p, stats.Percentile(waits, p))
	}
	// Output:
	// p25 = 30
	// p50 = 75
	// p98 = 960
	// p100 = 960
}

func ExampleCollector() {
	trace := `; MaxProcs: 4
1  0  0 100 2 -1 -1 2 200 -1 1 1 1 -1 1 -1 -1 -1
2 10 90   5 2 -1 -1 2  50 -1 1 2 1 -1 1 -1 -1 -1
`
	r := swf.NewReader(strings.NewReader(trace))
	hdr, _ := r.Header()
	procs, _, _ := hdr.MaxProcs()
	c := stats.NewCollector(stats.Config{Percentiles: []float64{50}}, stats.Machine{Procs: procs, Source: "MaxProcs"})
	for {
		job, err := r.Read()
		if err == io.EOF {
			break
		}
		c.Add(&job)
	}
	rep := c.Report("example")
	for _, m := range []string{"wait_s", "bsld"} {
		mean, _ := rep.Find(m, "mean")
		fmt.Printf("%s mean %g over %d jobs\n", m, mean.Value, mean.Jobs)
	}
	util, _ := rep.Find("utilization_pct", "value")
	fmt.Printf("utilization %.2f%%\n", util.Value)
	// Output:
	// wait_s mean 45 over 2 jobs
	// bsld mean 5.5 over 2 jobs
	// utilization 50.00%
}
