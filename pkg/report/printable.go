package report

import (
	"slices"

	"github.com/swfkit/swfkit/pkg/printable"
)

// printableCopy is r with every string made printable (package printable):
// a file name that is not UTF-8, or a header line with an escape sequence,
// would otherwise put invalid UTF-8 or control characters into a page that
// says it is UTF-8. Figure.SVG is the figure writer's, left as it is.
func printableCopy(r *Report) *Report {
	c := *r
	c.Title, c.Generator = printable.Label(r.Title), printable.Label(r.Generator)
	c.Notes = texts(r.Notes)
	c.Inputs = slices.Clone(r.Inputs)
	for i := range c.Inputs {
		in := &c.Inputs[i]
		in.Label, in.File, in.SHA256 = printable.Label(in.Label), printable.Label(in.File), printable.Label(in.SHA256)
		in.Facts = slices.Clone(in.Facts)
		for k := range in.Facts {
			in.Facts[k] = Fact{Name: printable.Text(in.Facts[k].Name), Value: printable.Text(in.Facts[k].Value)}
		}
		in.Warnings, in.Notes, in.Provenance = texts(in.Warnings), texts(in.Notes), texts(in.Provenance)
		in.Excluded = slices.Clone(in.Excluded)
		for k := range in.Excluded {
			e := &in.Excluded[k]
			e.Reason, e.LeftOutOf = printable.Text(e.Reason), printable.Text(e.LeftOutOf)
		}
	}
	c.Tables = slices.Clone(r.Tables)
	for i := range c.Tables {
		t := &c.Tables[i]
		t.ID, t.Title, t.Head = printable.Label(t.ID), printable.Text(t.Title), labels(t.Head)
		t.Rows = slices.Clone(t.Rows)
		for k := range t.Rows {
			t.Rows[k] = labels(t.Rows[k])
		}
	}
	c.Figures = slices.Clone(r.Figures)
	for i := range c.Figures {
		f := &c.Figures[i]
		f.ID, f.Title = printable.Label(f.ID), printable.Label(f.Title)
		f.Caption, f.Missing = printable.Text(f.Caption), printable.Text(f.Missing)
	}
	return &c
}

func texts(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = printable.Text(v)
	}
	return out
}

func labels(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = printable.Label(v)
	}
	return out
}
