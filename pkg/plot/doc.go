// Package plot draws swfstat's figures with gonum.org/v1/plot: one curve or
// bar group per input trace, labelled axes and a legend. The output format
// (svg, png, pdf) follows the file extension.
//
// Conventions: times on the x axis of the timeline plots are hours since the
// first submit of each trace; CDF curves are drawn through at most
// MaxCDFPoints points (equally spaced ranks) so that million-job traces give
// small files; waits below 1 s are drawn at 1 s on the logarithmic axis.
package plot
