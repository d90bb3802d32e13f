package plot

import (
	"image/color"
	"testing"
)

// A group listed in Schedule.Groups has the same color in every chart,
// whether or not the groups before it are in the window; the others take
// the colors left.
func TestGanttGroupColorsAreFixed(t *testing.T) {
	groups := []string{"SN", "SW", "LN", "LW", "unknown"}
	colorsOf := func(present ...string) map[string]color.Color {
		g := Schedule{From: 0, To: 100, ColorBy: "category", Groups: groups}
		var segs []segment
		for i, grp := range present {
			g.Jobs = append(g.Jobs, GanttJob{Start: 0, End: 10, Procs: 1, Group: grp})
			segs = append(segs, segment{job: i, lo: int64(i), hi: int64(i) + 1})
		}
		colors, legend := groupColors(g, segs)
		if len(legend) != len(present) {
			t.Errorf("%v: %d legend entries", present, len(legend))
		}
		return colors
	}
	all := colorsOf("SN", "SW", "LN", "LW")
	some := colorsOf("LW", "LN")
	for _, grp := range []string{"LN", "LW"} {
		if all[grp] != some[grp] {
			t.Errorf("%s: %v with SN and SW in the chart, %v without", grp, all[grp], some[grp])
		}
	}
	if all["LN"] != palette[2] {
		t.Errorf("LN is %v, want the third palette color", all["LN"])
	}
	mixed := colorsOf("LN", "user-x")
	if mixed["user-x"] == mixed["LN"] || mixed["user-x"] != palette[0] {
		t.Errorf("an unlisted group took %v, want the first color left (LN has %v)", mixed["user-x"], mixed["LN"])
	}
}
