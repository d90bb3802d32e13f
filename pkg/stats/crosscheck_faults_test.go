package stats_test

// Known faults of pkg/stats found by the cross-check, each with its minimal
// case worked by hand.

import "github.com/swfkit/swfkit/pkg/stats"

// refKnownFault explains a mismatch by a known fault.
func refKnownFault(k refRowKey, got stats.Row, want refRow, found bool) string { return "" }
