package cmdio

import (
	"io"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/swfkit/swfkit/pkg/provenance"
)

// TestProvenance: every flag by its long name with its effective value,
// defaults included, a deprecated alias under the flag's name, lists as
// repeated fields, and the non-configuration flags left out.
func TestProvenance(t *testing.T) {
	var got provenance.Record
	app := NewApp("tool", "", io.Discard, io.Discard)
	app.Flags = []cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}},
		&cli.StringFlag{Name: "policy", Aliases: []string{"p"}},
		&cli.Int64Flag{Name: "category-runtime", Aliases: []string{"short-max"}, Value: 3600},
		&cli.Float64Flag{Name: "target-load"},
		&cli.Uint64Flag{Name: "seed", Value: 1},
		&cli.BoolFlag{Name: "no-kill"},
		&cli.IntFlag{Name: "ga-workers"},
		&cli.StringSliceFlag{Name: "tag"},
		&cli.StringSliceFlag{Name: "by"},
	}
	app.Action = func(c *cli.Context) error { got = Provenance(c); return nil }
	args := []string{"tool", "-p", "easy", "--short-max", "600", "--target-load", "0.9", "--no-kill",
		"--tag", "a=1", "--tag", "b=x y", "-o", "out.swf", "--ga-workers", "2", "in.swf"}
	if code := Run(app, args, io.Discard); code != 0 {
		t.Fatalf("exit %d", code)
	}
	want := `tool version=` + Version + ` policy=easy category-runtime=600 target-load=0.9 seed=1 no-kill=true tag="a=1" tag="b=x y" by="" input=in.swf`
	if got.Format() != want {
		t.Errorf("Provenance:\n got %s\nwant %s", got.Format(), want)
	}
}
