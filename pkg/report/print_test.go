package report

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// wideTable is a comparison table of the given count of value columns, with
// metric and statistic as its key columns; cell "r<row>c<column>".
func wideTable(values int) Table {
	t := Table{ID: "overall", Title: "overall", Head: []string{"metric", "statistic"}, Numeric: 2}
	for c := 0; c < values; c++ {
		t.Head = append(t.Head, fmt.Sprintf("in%d", c))
	}
	for r := 0; r < 3; r++ {
		row := []string{fmt.Sprintf("m%d", r), "mean"}
		for c := 0; c < values; c++ {
			row = append(row, fmt.Sprintf("r%dc%d", r, c))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

func TestPrintParts(t *testing.T) {
	for _, tc := range []struct {
		values int
		parts  []int // value columns in each printed part
		paper  string
	}{
		{1, []int{1}, ""},
		{8, []int{8}, ""},
		{9, []int{9}, "wide"},
		{12, []int{12}, "wide"},
		{13, []int{13}, "wide dense"},
		{16, []int{16}, "wide dense"},
		{23, []int{12, 11}, "wide"},       // 12 inputs with --baseline: values, then changes
		{31, []int{16, 15}, "wide dense"}, // 16 inputs with --baseline
		{36, []int{12, 12, 12}, "wide"},   // a study's 36 runs
	} {
		t.Run(fmt.Sprint(tc.values), func(t *testing.T) {
			whole := wideTable(tc.values)
			parts := printParts(whole)
			var got []int
			var cells [][]string // the value cells of every part, row by row
			for i, p := range parts {
				got = append(got, len(p.Head)-p.Numeric)
				if p.Paper != tc.paper {
					t.Errorf("part %d: paper %q, want %q", i, p.Paper, tc.paper)
				}
				if p.Numeric != 2 || !slices.Equal(p.Head[:2], whole.Head[:2]) {
					t.Errorf("part %d: key columns %v, Numeric %d; want metric, statistic", i, p.Head[:2], p.Numeric)
				}
				if len(parts) > 1 && p.Title != fmt.Sprintf("overall (part %d of %d)", i+1, len(parts)) {
					t.Errorf("part %d: title %q", i, p.Title)
				}
				for r, row := range p.Rows {
					if !slices.Equal(row[:2], whole.Rows[r][:2]) {
						t.Errorf("part %d row %d: keys %v, want %v", i, r, row[:2], whole.Rows[r][:2])
					}
					if i == 0 {
						cells = append(cells, nil)
					}
					cells[r] = append(cells[r], row[2:]...)
				}
			}
			if !slices.Equal(got, tc.parts) {
				t.Errorf("parts of %v value columns, want %v", got, tc.parts)
			}
			for r, row := range whole.Rows {
				if !slices.Equal(cells[r], row[2:]) {
					t.Errorf("row %d: the parts hold %v, want every value once in order: %v", r, cells[r], row[2:])
				}
			}
			if len(parts) == 1 && (parts[0].Title != whole.Title || len(parts[0].Rows) != len(whole.Rows)) {
				t.Errorf("a table that fits is not printed as itself: %+v", parts[0].Table)
			}
		})
	}
}

// A table too wide to print whole is in the page twice: whole for the
// screen, and in parts for print; one that fits is there once.
func TestWriteSplitsWideTablesForPrint(t *testing.T) {
	r := sample()
	r.Tables = []Table{wideTable(23), wideTable(4)}
	r.Tables[1].ID, r.Tables[1].Title = "narrow", "narrow"
	var buf bytes.Buffer
	if err := Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, want := range []string{
		`<section class="table split" id="table-overall">`, `<div class="whole">`,
		`<div class="part wide">` + "\n<h3>overall (part 1 of 2)</h3>", `<div class="part wide">` + "\n<h3>overall (part 2 of 2)</h3>",
		`<table style="--values: 23">`, `<table style="--values: 12">`, `<table style="--values: 11">`,
		`<th class="key">metric</th><th class="key">statistic</th><th>in0</th>`,
		`<section class="table" id="table-narrow">`, `<table style="--values: 4">`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if n := strings.Count(page, "r2c22"); n != 2 {
		t.Errorf("the last cell of the wide table is in the page %d times, want 2 (whole and its part)", n)
	}
	if n := strings.Count(page, "<h3>overall"); n != 3 {
		t.Errorf("%d titles of the wide table, want 3 (whole and two parts)", n)
	}
}

// A number never has to break between its digits: a table's paper and parts
// allow for its longest number (16 mean waits of 10336.4719 s fit a dense
// landscape page; 11 characters do not, and cut the table in two).
func TestPrintPartsFitLongNumbers(t *testing.T) {
	for _, tc := range []struct {
		values int
		number string
		parts  []int
		paper  string
	}{
		{8, "10336.4719", []int{8}, ""},
		{8, "123456.7891", []int{8}, "wide"},
		{16, "10336.4719", []int{16}, "wide dense"},
		{16, "123456.7891", []int{8, 8}, "wide"},
		{15, "123456.7891", []int{15}, "wide dense"},
		{31, "-1234.5678", []int{16, 15}, "wide dense"},
	} {
		t.Run(fmt.Sprintf("%d of %s", tc.values, tc.number), func(t *testing.T) {
			table := wideTable(tc.values)
			table.Rows[1][2] = tc.number
			table.Rows[2][len(table.Head)-1] = tc.number
			var got []int
			for i, p := range printParts(table) {
				got = append(got, len(p.Head)-p.Numeric)
				if p.Paper != tc.paper {
					t.Errorf("part %d: paper %q, want %q", i, p.Paper, tc.paper)
				}
			}
			if !slices.Equal(got, tc.parts) {
				t.Errorf("parts of %v value columns, want %v", got, tc.parts)
			}
		})
	}
}
