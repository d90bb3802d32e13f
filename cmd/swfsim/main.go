// Command swfsim simulates a scheduling policy over an SWF trace and writes the
// simulated schedule as SWF. See docs/swfsim.md.
package main

import (
	"os"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	simcli "github.com/swfkit/swfkit/internal/cli/sim"
)

func main() {
	cmdio.IgnoreSIGPIPE()
	cmdio.CollectSooner(cmdio.ResidentGCPercent)
	os.Exit(simcli.Run(os.Args, os.Stdin, cmdio.Stdout(), os.Stderr))
}
