// Command swfclean checks and cleans SWF workload traces; see internal/cli/clean.
package main

import (
	"os"

	cleancli "github.com/swfkit/swfkit/internal/cli/clean"
	"github.com/swfkit/swfkit/internal/cli/cmdio"
)

func main() {
	cmdio.IgnoreSIGPIPE()
	os.Exit(cleancli.Run(os.Args, os.Stdin, cmdio.Stdout(), os.Stderr))
}
