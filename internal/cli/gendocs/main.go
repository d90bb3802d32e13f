// Command gendocs writes the man pages and shell completion scripts of the
// four swfkit commands from their flag definitions, the same ones their
// --help shows, so that none can drift from the code:
//
//	go run ./internal/cli/gendocs -man man -completion completion
//
// writes man/NAME.1, completion/bash/NAME, completion/zsh/_NAME and
// completion/fish/NAME.fish. `make man` and `make completion` run it.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	augmentcli "github.com/swfkit/swfkit/internal/cli/augment"
	cleancli "github.com/swfkit/swfkit/internal/cli/clean"
	"github.com/swfkit/swfkit/internal/cli/cmdio"
	simcli "github.com/swfkit/swfkit/internal/cli/sim"
	statcli "github.com/swfkit/swfkit/internal/cli/stat"
)

// apps are the toolkit's commands, as their mains build them.
func apps() []*cli.App {
	return []*cli.App{
		cleancli.NewApp(nil, io.Discard, io.Discard),
		augmentcli.NewApp(nil, io.Discard, io.Discard),
		simcli.NewApp(nil, io.Discard, io.Discard),
		statcli.NewApp(nil, io.Discard, io.Discard),
	}
}

func main() {
	manDir := flag.String("man", "", "write the man pages into `DIR`")
	compDir := flag.String("completion", "", "write bash, zsh and fish completion scripts under `DIR`")
	flag.Parse()
	if *manDir == "" && *compDir == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: gendocs [-man DIR] [-completion DIR]")
		os.Exit(2)
	}
	if err := write(*manDir, *compDir); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
}

// files returns every file gendocs writes, by path under the two folders.
func files(manDir, compDir string) map[string]string {
	var names []string
	for _, a := range apps() {
		names = append(names, a.Name)
	}
	out := map[string]string{}
	for _, a := range apps() {
		if manDir != "" {
			out[filepath.Join(manDir, a.Name+".1")] = cmdio.ManPage(a, names)
		}
		if compDir != "" {
			out[filepath.Join(compDir, "bash", a.Name)] = cmdio.BashCompletion(a)
			out[filepath.Join(compDir, "zsh", "_"+a.Name)] = cmdio.ZshCompletion(a)
			out[filepath.Join(compDir, "fish", a.Name+".fish")] = cmdio.FishCompletion(a)
		}
	}
	return out
}

func write(manDir, compDir string) error {
	for path, text := range files(manDir, compDir) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}
