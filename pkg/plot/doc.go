// Package plot draws swfstat's figures with gonum.org/v1/plot: one curve or
// bar group per input trace, labelled axes and a legend; and the Gantt chart
// of one schedule (NewGantt). The output format (svg, png, pdf) follows the
// file extension; Size gives the figure's size and a PNG's resolution.
//
// Conventions: times on the x axis of the timeline plots are hours since the
// first submit of each trace, and of a Gantt chart hours since its window's
// start; CDF curves are drawn through at most MaxCDFPoints points (equally
// spaced ranks) so that million-job traces give small files; waits below
// 1 s are drawn at 1 s on the logarithmic axis; the category bars stand on
// a logarithmic axis from 1, the least bounded slowdown. SVG and PDF files
// embed the font their text was laid out with (Liberation Serif, bundled
// with gonum/plot); InlineSVG leaves it to the page, which embeds FontCSS
// once. A Gantt chart's processor axis is a drawing choice, since SWF records
// no processor ids: see Schedule.
package plot
