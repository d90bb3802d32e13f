package provenance

import (
	"fmt"
	"strings"

	"github.com/swfkit/swfkit/pkg/swf"
)

// FromHeader returns the records of every Provenance line of h, in header
// order. An error names the file and line of a line that does not parse.
func FromHeader(h *swf.Header) ([]Record, error) {
	var out []Record
	for _, l := range h.Lines {
		if l.Continuation || !strings.EqualFold(l.Label, Label) {
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

// AddTo appends r's line to h after the earlier Provenance and Note lines.
func AddTo(h *swf.Header, r Record) { h.Add(Label, r.Format()) }
