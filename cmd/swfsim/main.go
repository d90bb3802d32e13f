// Command swfsim simulates a scheduling policy over an SWF trace and writes the
// simulated schedule as SWF. See docs/swfsim.md.
package main

import (
	"os"

	simcli "github.com/swfkit/swfkit/internal/cli/sim"
)

func main() { os.Exit(simcli.Run(os.Args, os.Stdin, os.Stdout, os.Stderr)) }
