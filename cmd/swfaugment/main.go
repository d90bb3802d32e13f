// Command swfaugment adds utility functions, checkpoint intervals, runtime
// estimate errors and load scaling to an SWF trace. See docs/swfaugment.md.
package main

import (
	"os"

	"github.com/swfkit/swfkit/internal/cli/augment"
	"github.com/swfkit/swfkit/internal/cli/cmdio"
)

func main() {
	cmdio.IgnoreSIGPIPE()
	os.Exit(augmentcli.Run(os.Args, os.Stdin, cmdio.Stdout(), os.Stderr))
}
