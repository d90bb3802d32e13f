package provenance

import (
	"fmt"
	"slices"
	"strings"

	"github.com/swfkit/swfkit/pkg/swf"
)

// Tools are the commands that write Provenance lines: a Provenance line
// whose first word is none of them was written by someone else.
var Tools = []string{"swfclean", "swfaugment", "swfsim", "swfstat"}

// FromHeader returns the records of every Provenance line of h that a swfkit
// tool wrote (its first word is one of Tools), in header order; foreign
// lines (free text another tool or a person put under the label) are left
// out, see Foreign. An error names the file and line of a swfkit line that
// does not parse.
func FromHeader(h *swf.Header) ([]Record, error) {
	all, err := AllFromHeader(h)
	out := all[:0]
	for _, r := range all {
		if slices.Contains(Tools, r.Tool) && r.Other == "" {
			out = append(out, r)
		}
	}
	return out, err
}

// AllFromHeader is FromHeader with the foreign lines kept in their places,
// each as a Record whose Tool is its first word and Other its whole text
// (no Fields): what a replay must name, since it cannot run them.
func AllFromHeader(h *swf.Header) ([]Record, error) {
	var out []Record
	for _, l := range h.Lines {
		if l.Continuation || !strings.EqualFold(l.Label, Label) {
			continue
		}
		if !ours(l.Value) {
			text := strings.TrimSpace(l.Value)
			first, _, _ := strings.Cut(text, " ")
			out = append(out, Record{Tool: first, Other: text})
			continue
		}
		r, err := Parse(l.Value)
		if err != nil {
			return out, fmt.Errorf("%s:%d: header %s line: %w", h.File, l.Line, Label, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// Foreign returns the line numbers of h's Provenance lines that no swfkit
// tool wrote, which FromHeader leaves out.
func Foreign(h *swf.Header) []int {
	var lines []int
	for _, l := range h.Lines {
		if !l.Continuation && strings.EqualFold(l.Label, Label) && !ours(l.Value) {
			lines = append(lines, l.Line)
		}
	}
	return lines
}

func ours(value string) bool {
	first, _, _ := strings.Cut(strings.TrimSpace(value), " ")
	for _, t := range Tools {
		if first == t {
			return true
		}
	}
	return false
}

// AddTo appends r's line to h after the earlier Provenance and Note lines.
func AddTo(h *swf.Header, r Record) { h.Add(Label, r.Format()) }
