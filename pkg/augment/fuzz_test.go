package augment

import (
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/swf"
)

// FuzzFlagParsers: the parsers of flag values and answer files never panic, and
// what they accept renders back to an equivalent value.
func FuzzFlagParsers(f *testing.F) {
	for _, s := range []string{"exact", "scale:2", "uniform:1,5", "0,1+12,2", "linear:1,step:0.5", "1 600\n2 none\n", "# c\n3 -1\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if m, err := ParseModel(s); err == nil {
			back, err := ParseModel(m.String())
			if err != nil || back.Kind != m.Kind {
				t.Fatalf("model %q -> %q -> %v, %v", s, m, back, err)
			}
		}
		if p, err := ParsePriorities(s); err == nil {
			back, err := ParsePriorities(p.String())
			if err != nil || back.String() != p.String() {
				t.Fatalf("priorities %q -> %q -> %v", s, p, err)
			}
			for _, g := range p.Groups {
				for _, q := range g {
					if r, ok := p.Rank(q); !ok || r >= p.N() {
						t.Fatalf("queue %d of %q has rank %d, %v", q, s, r, ok)
					}
				}
			}
		}
		if w, err := ParseDecayWeights(s); err == nil {
			for _, x := range w {
				if x < 0 {
					t.Fatalf("negative weight from %q", s)
				}
			}
		}
		if a, err := ReadAnswers(strings.NewReader(s), "fuzz"); err == nil {
			for job, iv := range a {
				if iv != NoCheckpoint && (iv < 1 || iv > swf.MaxTime) {
					t.Fatalf("job %d: interval %d accepted from %q", job, iv, s)
				}
			}
		}
	})
}
