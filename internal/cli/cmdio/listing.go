package cmdio

import (
	"io"

	"github.com/urfave/cli/v2"
)

// ListingOnly refuses what a listing mode (swfsim --list-policies, swfclean
// --list-rules) would ignore: an input file, or any flag set but the
// listing's own and -o, which the listing honours (WriteListing).
func ListingOnly(c *cli.Context, mode string) error {
	if c.Args().Present() {
		return Usagef("--%s takes no input file, got %q", mode, c.Args().First())
	}
	for _, f := range c.App.Flags {
		name := f.Names()[0]
		if name == mode || name == "output" || !c.IsSet(name) {
			continue
		}
		return Usagef("--%s does not apply to --%s, which only lists", name, mode)
	}
	return nil
}

// WriteListing writes a listing made by write to -o FILE (written whole or
// not at all, as every output) or, without -o, to stdout.
func WriteListing(c *cli.Context, stdin io.Reader, stdout io.Writer, write func(io.Writer) error) (err error) {
	files := NewFiles(stdin, stdout)
	files.Output("-o", c.String("output"))
	if err := files.Check(); err != nil {
		return err
	}
	defer files.Finish(&err)
	out, err := files.Create(c.String("output"))
	if err != nil {
		return err
	}
	return write(out)
}
