package extpolicy

import "time"

// SetLaterGrace sets how long a rejected reply waits for a later line, and
// returns the function that restores it: a test whose program writes that
// line after a sleep must not depend on the machine's load.
func SetLaterGrace(d time.Duration) (restore func()) {
	old := laterGrace
	laterGrace = d
	return func() { laterGrace = old }
}
