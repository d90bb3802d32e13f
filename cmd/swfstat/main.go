// Command swfstat summarizes SWF traces side by side; see docs/swfstat.md.
package main

import (
	"os"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	statcli "github.com/swfkit/swfkit/internal/cli/stat"
)

func main() {
	cmdio.IgnoreSIGPIPE()
	os.Exit(statcli.Run(os.Args, os.Stdin, cmdio.Stdout(), os.Stderr))
}
