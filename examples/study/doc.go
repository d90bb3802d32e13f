// Package study holds the tests of the example study in this directory: the
// GNU parallel and Slurm job-array scripts run a small grid for real, and the
// table one swfstat call makes of it is checked. See docs/study.md.
package study
