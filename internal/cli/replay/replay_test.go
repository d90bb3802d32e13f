package replay

import (
	"strings"
	"testing"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/provenance"
)

func record(t *testing.T, line string) provenance.Record {
	t.Helper()
	r, err := provenance.Parse(line)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Defaults are left out, list flags repeat, a switch set to its default is
// dropped and one set against it kept, values are quoted for the shell, and a
// run that read a file is fed by the run before writing that file.
func TestCommands(t *testing.T) {
	v := "version=" + cmdio.Version
	recs := []provenance.Record{
		record(t, "swfclean "+v+` rules=default filter="user=3 and job>2" filter="job<9" set="" lenient=false input="a b.swf"`),
		record(t, "swfaugment "+v+" seed=1 estimate=exact target-load=0.9 input=-"),
		record(t, "swfsim "+v+" policy=easy no-kill=true procs-from=requested seed=1 input=aug.swf"),
	}
	got, err := Commands(recs)
	if err != nil {
		t.Fatal(err)
	}
	want := "swfclean '--filter=user=3 and job>2' '--filter=job<9' 'a b.swf' \\\n" +
		"  | swfaugment --estimate=exact --target-load=0.9 -o replay-2-aug.swf\n" +
		"# the next run read aug.swf\n" +
		"swfsim --policy=easy --no-kill replay-2-aug.swf\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	old := []provenance.Record{record(t, "swfsim version=0.0.1 policy=fcfs input=-")}
	if got, _ := Commands(old); !strings.HasPrefix(got, "# swfsim 0.0.1 made this run") || !strings.HasSuffix(got, "swfsim --policy=fcfs -\n") {
		t.Errorf("another version's run:\n%s", got)
	}
	for _, bad := range [][]provenance.Record{
		nil,
		{record(t, "swfstat "+v+" input=x")},
		{record(t, "swfsim "+v+" no-such-flag=1 input=-")},
		{record(t, "swfsim "+v+" policy=easy")},
	} {
		if _, err := Commands(bad); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}
