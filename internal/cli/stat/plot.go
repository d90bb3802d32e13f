package statcli

import (
	"github.com/swfkit/swfkit/internal/cli/cmdio"

	"github.com/swfkit/swfkit/pkg/plot"
	"github.com/swfkit/swfkit/pkg/stats"
)

// writePlot draws the --plot figure with one curve or bar group per input.
func writePlot(o *options, traces []*trace, files *cmdio.Files) error {
	inputs := make([]plot.Input, len(traces))
	for i, t := range traces {
		in := plot.Input{Label: t.label}
		switch o.plotKind {
		case plot.WaitCDF, plot.BSLDCDF:
			rep := t.collector.Report(t.label)
			in.Waits, in.BoundedSlowdowns = rep.Waits, rep.BoundedSlowdowns
		case plot.Utilization, plot.QueueLength:
			in.Timeline = t.collector.Timeline(plot.TimelineBins)
		case plot.Category:
			in.CategoryBSLD = map[string]float64{}
			for _, row := range t.collector.WithBy(stats.ByCategory).Report(t.label).Rows {
				if row.By1 == "category" && row.Metric == "bsld" && row.Statistic == "mean" {
					in.CategoryBSLD[row.Group1] = row.Value
				}
			}
		}
		inputs[i] = in
	}
	p, err := plot.New(o.plotKind, inputs)
	if err != nil {
		return err
	}
	f, err := files.Create(o.plotFile)
	if err != nil {
		return err
	}
	return plot.Write(p, o.plotFmt, f)
}
