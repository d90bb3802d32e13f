package statcli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/swfkit/swfkit/pkg/provenance"
)

// inputColumns are the constant columns of an input in the CSV and JSON
// tables: the --tag columns, then the TOOL.FLAG columns of the Provenance
// lines of every input, in order of first appearance. An input without a
// column's value has it empty in CSV and null in JSON.
type inputColumns struct {
	names   []string
	vals    [][]string // per input, aligned with names
	present [][]bool
}

func newInputColumns(o *options, traces []*trace) *inputColumns {
	ic := &inputColumns{}
	at := map[string]int{}
	for _, tag := range o.tags {
		at[tag.Name] = len(ic.names)
		ic.names = append(ic.names, tag.Name)
	}
	perInput := make([][]provenance.Column, len(traces))
	for i, t := range traces {
		perInput[i] = provenance.Columns(t.provenance)
		for _, c := range perInput[i] {
			if _, ok := at[c.Name]; !ok {
				at[c.Name] = len(ic.names)
				ic.names = append(ic.names, c.Name)
			}
		}
	}
	// swfstat's own configuration last, the same on every row: the flags
	// that change the numbers and that no settings column states
	// (ownColumns). No input's header holds a swfstat record (swfstat writes
	// no SWF), so the names are free.
	mine := provenance.Record{Tool: o.provenance.Tool}
	for _, f := range o.provenance.Fields {
		if slices.Contains(ownColumns, f.Key) {
			mine.Fields = append(mine.Fields, f)
		}
	}
	own := provenance.Columns([]provenance.Record{mine})
	for _, c := range own {
		at[c.Name] = len(ic.names)
		ic.names = append(ic.names, c.Name)
	}
	// And the hash of the bytes swfstat read from each input (the file
	// column names it), as TOOL.input-sha256 gives the other tools': which
	// bytes a row's numbers come from. Last, so that the columns before it
	// keep their places.
	hashName := "swfstat." + provenance.InputSHA256
	sums := make([]string, len(traces))
	for i, t := range traces {
		sums[i], _ = t.digest.Sum()
		if sums[i] != "" {
			if _, ok := at[hashName]; !ok {
				at[hashName] = len(ic.names)
				ic.names = append(ic.names, hashName)
			}
		}
	}
	for i := range traces {
		vals := make([]string, len(ic.names))
		present := make([]bool, len(ic.names))
		for _, tag := range o.tags {
			vals[at[tag.Name]], present[at[tag.Name]] = tag.Value, true
		}
		for _, c := range perInput[i] {
			vals[at[c.Name]], present[at[c.Name]] = c.Value, true
		}
		for _, c := range own {
			vals[at[c.Name]], present[at[c.Name]] = c.Value, true
		}
		if sums[i] != "" {
			vals[at[hashName]], present[at[hashName]] = sums[i], true
		}
		ic.vals = append(ic.vals, vals)
		ic.present = append(ic.present, present)
	}
	return ic
}

// ownColumns are the swfstat flags that become swfstat.FLAG columns: the
// version and what decides which jobs are measured and how. The others are
// the settings columns already (bsld_threshold_s, ...), shown by the rows
// themselves (--metrics, --kill-warn's warning), the file column (input), or
// about presentation only (--format, --label, --plot-*). In the order of
// swfstat's Provenance line, which the columns follow.
var ownColumns = []string{"version", "baseline", "percentiles", "procs", "by", "skip-first", "skip-last", "window", "lenient"}

func (ic *inputColumns) values(i int) []string { return ic.vals[i] }

// parseTags reads --tag KEY=VALUE flags. A key is letters, digits, '_' and
// '-' (no '.', which provenance columns use), not a fixed column's name, and
// given once. The value is not empty: an empty cell is how a table that
// joins runs with and without the tag says "absent".
func parseTags(specs []string, reserved []string) ([]provenance.Column, error) {
	var tags []provenance.Column
	for _, s := range specs {
		k, v, ok := strings.Cut(s, "=")
		if !ok || k == "" || strings.IndexFunc(k, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-')
		}) >= 0 {
			return nil, fmt.Errorf("--tag %q: want KEY=VALUE with a KEY of letters, digits, '_' or '-'", s)
		}
		if v == "" {
			return nil, fmt.Errorf("--tag %q: want a VALUE after '=': an empty cell reads as a run without the tag once tables are joined", s)
		}
		// Column names are compared without case: DuckDB, SQL and
		// spreadsheets read "A" and "a" as one column.
		if i := slices.IndexFunc(reserved, func(r string) bool { return strings.EqualFold(r, k) }); i >= 0 {
			return nil, fmt.Errorf("--tag %q: %s is a column of the table already", s, reserved[i])
		}
		for _, t := range tags {
			switch {
			case t.Name == k:
				return nil, fmt.Errorf("--tag %s given twice", k)
			case strings.EqualFold(t.Name, k):
				return nil, fmt.Errorf("--tag %s and --tag %s differ only in case: tools that read the table (DuckDB, SQL) take them for one column", t.Name, k)
			}
		}
		tags = append(tags, provenance.Column{Name: k, Value: v})
	}
	return tags, nil
}
