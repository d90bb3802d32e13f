package cmdio

import (
	"io"
	"strconv"
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

// TestProvenanceFloats: a float flag's value is the shortest decimal that
// reads back to the same float, written plain as always from 1e-4 up and in
// exponent form below (and from 1e21), where the plain decimal is a run of
// zeros (1e-300 would take 302 characters) that no one reads at a glance.
func TestProvenanceFloats(t *testing.T) {
	values := map[string]string{ // flag: value given
		"half": "0.5", "two": "2", "hundred": "100", "tenth": "1e-1", "small": "0.0001",
		"tiny": "1e-9", "tinier": "1.5e-7", "tiniest": "1e-300", "denormal": "5e-324", "negative": "-2.5e-8",
		"big": "123456789012", "huge": "1e300", "zero": "0",
	}
	want := "tool version=" + Version + " half=0.5 two=2 hundred=100 tenth=0.1 small=0.0001" +
		" tiny=1e-09 tinier=1.5e-07 tiniest=1e-300 denormal=5e-324 negative=-2.5e-08" +
		" big=123456789012 huge=1e+300 zero=0 input=-"
	var got provenance.Record
	app := NewApp("tool", "", io.Discard, io.Discard)
	args := []string{"tool"}
	for _, name := range []string{"half", "two", "hundred", "tenth", "small", "tiny", "tinier", "tiniest", "denormal", "negative", "big", "huge", "zero"} {
		app.Flags = append(app.Flags, &cli.Float64Flag{Name: name})
		args = append(args, "--"+name, values[name])
	}
	app.Action = func(c *cli.Context) error { got = Provenance(c); return nil }
	if code := Run(app, args, io.Discard); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if got.Format() != want {
		t.Errorf("Provenance:\n got %s\nwant %s", got.Format(), want)
	}
	for _, f := range got.Fields {
		given, ok := values[f.Key]
		if !ok {
			continue
		}
		x, _ := strconv.ParseFloat(given, 64)
		if back, err := strconv.ParseFloat(f.Value, 64); err != nil || back != x {
			t.Errorf("%s=%s reads back as %v, %v; want %v", f.Key, f.Value, back, err, x)
		}
	}
}
