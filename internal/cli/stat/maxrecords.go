package statcli

import (
	"fmt"
	"strings"

	"github.com/swfkit/swfkit/pkg/provenance"
	"github.com/swfkit/swfkit/pkg/swf"
)

// exactMaxRecords reports whether the header's MaxRecords was set by a
// swfkit tool to the number of records it wrote, so that another count
// means the file changed after it was written: swfclean sets it on every
// run (unless its --set gives MaxRecords), swfsim when it leaves records
// out (its Note "swfsim MaxJobs N and MaxRecords M count the output"), and
// swfaugment and swfsim otherwise keep every record and the label. A count
// copied from an archive trace is often not the file's (LANL-CM5-1994-4.1-cln
// says 201387 of its 122060 records), so a file only swfaugment and swfsim
// wrote is not checked, nor one that a lenient swfaugment run, which skips
// malformed lines and keeps the label, wrote.
func exactMaxRecords(hdr *swf.Header, prov []provenance.Record) bool {
	exact := false
	for _, r := range prov {
		switch r.Tool {
		case "swfclean":
			exact = true
			for _, f := range r.Fields {
				if f.Key == "set" && strings.HasPrefix(strings.ToLower(strings.TrimSpace(f.Value)), "maxrecords") {
					exact = false
				}
			}
		case "swfaugment":
			if v, _ := r.Get("lenient"); v == "true" {
				return false
			}
		}
	}
	for _, l := range hdr.Lines {
		if strings.EqualFold(l.Label, "Note") && strings.HasPrefix(strings.TrimSpace(l.Value), "swfsim MaxJobs ") &&
			strings.Contains(l.Value, " count the output") {
			exact = true
		}
	}
	return exact
}

// recordCountWarning is the warning for a file swfkit wrote whose record
// lines (records read and malformed ones skipped) are not its header's
// MaxRecords: a point of a study cut at a line boundary, or edited, is
// otherwise summarized as if whole. "" when they agree or the count is not
// one a swfkit tool set (exactMaxRecords).
func recordCountWarning(hdr *swf.Header, prov []provenance.Record, lines int) string {
	want, ok, err := hdr.MaxRecords()
	if !ok || err != nil || want == int64(lines) || !exactMaxRecords(hdr, prov) {
		return ""
	}
	what := "fewer"
	if int64(lines) > want {
		what = "more"
	}
	return fmt.Sprintf("%d records, %s than its header's MaxRecords %d, which the swfkit tool that wrote it set to the count it wrote: "+
		"the file was cut short or edited since, and is summarized as it is", lines, what, want)
}
