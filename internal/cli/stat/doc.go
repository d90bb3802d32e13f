// Package statcli is the swfstat command: it summarizes one or more SWF
// traces side by side (pkg/stats), draws figures (pkg/plot) and checks
// schedules against their machine.
package statcli
