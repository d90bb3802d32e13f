// Package repro holds the published results the toolkit reproduces, as
// regression checks: BenchmarkReproductions runs each one with the commands a
// user would type (swfaugment, swfsim and swfstat, in-process) on the traces
// in ../shared/data and fails when a figure leaves its stated tolerance. It
// is part of `make sweeps`, not `make test`: about 6 minutes on a shared
// 2-core machine, 5 of them the GA run of the Lee check:
//
//	go test -run '^$' -bench Reproductions -benchtime 1x ./internal/repro
//
// Each check names its source (paper, figure or table) and the tolerance;
// docs/swfsim-research.md, docs/swfaugment.md and docs/swfsim-ga.md give the
// same figures with the shell commands.
package repro
