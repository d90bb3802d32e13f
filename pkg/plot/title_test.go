package plot

import (
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// sizedRecorder records a figure's drawing on a page of a given size.
type sizedRecorder struct {
	recorder.Canvas
	w, h vg.Length
}

func (r *sizedRecorder) Size() (vg.Length, vg.Length) { return r.w, r.h }

// drawnText draws d as Write does on a page of the given size and returns
// every string drawn with its left and right ends.
func drawnText(t *testing.T, d Drawer, w, h vg.Length) (texts []string, left, right []vg.Length) {
	t.Helper()
	r := &sizedRecorder{w: w, h: h}
	d.Draw(framed(r))
	var pushed []bool // whether each Push's state is rotated
	rotated := false
	for _, a := range r.Actions {
		switch a.(type) {
		case *recorder.Push:
			pushed = append(pushed, rotated)
		case *recorder.Pop:
			rotated, pushed = pushed[len(pushed)-1], pushed[:len(pushed)-1]
		case *recorder.Rotate:
			rotated = true // the y axis's label, measured along the axis
		}
		if s, ok := a.(*recorder.FillString); ok && !rotated {
			face := font.DefaultCache.Lookup(s.Font, s.Size)
			texts = append(texts, s.String)
			left, right = append(left, s.Point.X), append(right, s.Point.X+face.Width(s.String))
		}
	}
	return texts, left, right
}

// TestTitlesStayOnThePage: a title too wide for the figure (a Gantt chart's
// names its input and its window; the KTH-SP2 log's ran 7 pt off both edges,
// "chedule of ...") is broken into lines that fit, the label whole on one
// of them, a label too long for any line elided in its middle, in every
// format alike (they draw the same strings).
func TestTitlesStayOnThePage(t *testing.T) {
	jobs := []GanttJob{{Submit: 0, Start: 0, End: 7200, Procs: 3, Group: "SN"}}
	long := "runs/" + strings.Repeat("a", 60) + "_seed2.swf.gz"
	cases := []struct {
		name, start, label string
		width              vg.Length
		want               string // drawn whole in the title
	}{
		{"KTH", "1997-02-15 11:38 CET, the busiest day", "KTH-SP2-1996-2.1-cln.swf.gz", DefaultWidth, "Schedule of KTH-SP2-1996-2.1-cln.swf.gz"},
		{"another input's window", "1997-02-15 11:38 CET, the busiest day of " + ShortLabel(long), "KTH-SP2-1996-2.1-cln.swf.gz", DefaultWidth, "Schedule of KTH-SP2-1996-2.1-cln.swf.gz"},
		{"small", "1997-02-15 11:38 CET, the busiest day", long, 3 * vg.Inch, "Schedule of " + ShortLabel(long)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := NewGantt(Schedule{Label: c.label, From: 0, To: 7200, Start: c.start, Jobs: jobs})
			if err != nil {
				t.Fatal(err)
			}
			texts, left, right := drawnText(t, d, c.width, DefaultHeight)
			found := false
			for i, s := range texts {
				// framed shrinks a small page's drawing to the default's layout.
				if left[i] < 0 || right[i] > max(c.width, DefaultWidth) {
					t.Errorf("%q drawn from %.1f to %.1f pt, off a page %.1f pt wide", s, left[i], right[i], max(c.width, DefaultWidth))
				}
				found = found || strings.Contains(s, c.want)
			}
			if !found {
				t.Errorf("no line holds %q: %q", c.want, texts)
			}
		})
	}
}

func TestTitleLines(t *testing.T) {
	style := defaultTitleStyle()
	w := style.Width("Schedule of KTH-SP2-1996-2.1-cln.swf.gz")
	parts := []string{"Schedule of KTH-SP2-1996-2.1-cln.swf.gz", "from 1997-02-15 11:38 CET, the busiest day (24 h)"}
	if got := titleLines(style, parts, 10*w); len(got) != 1 || got[0] != strings.Join(parts, " ") {
		t.Errorf("wide: %q, want one line", got)
	}
	got := titleLines(style, parts, w)
	if len(got) < 3 || got[0] != parts[0] || strings.Join(got[1:], " ") != parts[1] {
		t.Errorf("narrow: %q, want the label's line, then the window's broken between words", got)
	}
	for _, l := range got {
		if style.Width(l) > w {
			t.Errorf("%q is wider than %v", l, w)
		}
	}
	if got := titleLines(style, []string{"abcdefghijklmnopqrstuvwxyz0123456789"}, style.Width("abcdefghij…")); len(got) != 1 || !strings.HasPrefix(got[0], "abcd") || !strings.HasSuffix(got[0], "789") || !strings.Contains(got[0], "…") {
		t.Errorf("one long word: %q, want its ends around an ellipsis", got)
	}
}

func defaultTitleStyle() draw.TextStyle {
	return plot.New().Title.TextStyle
}
