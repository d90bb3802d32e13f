package clean

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/swfkit/swfkit/pkg/swf"
)

// buildRenumber numbers jobs 1..N in output order. Lines sharing a job number
// (partial executions) keep sharing one. A preceding-job reference (field 17)
// to a job already written is rewritten; one to a job not written before (a
// dropped job, a later one, or the job itself on its first line) becomes -1,
// and so does its think time (field 18), which is measured from that job's
// end.
//
// It records on c whether any job got a new number, for the Notes that name
// the input's job numbers (Annotate).
func buildRenumber(c *Cleaner) (step, error) {
	numbers := map[int64]int64{}
	next := int64(0)
	// cut counts the references to a job not written before, written -1.
	// The detail ignores the count of noted records written: rules run in
	// registry order, after every filter, and none after renumber drops a
	// record, so every record renumber sees is written.
	cut := 0
	detail := func(int) string {
		switch cut {
		case 0:
			return ""
		case 1:
			return "1 reference to a preceding job (field 17) not written before it set to -1, with its think time (field 18)"
		}
		return fmt.Sprintf("%d references to a preceding job (field 17) not written before them set to -1, with their think times (field 18)", cut)
	}
	return step{detail: detail, job: func(j *swf.Job) verdict {
		v := kept
		// The reference is looked up before this record's job is numbered:
		// a job naming itself, on its first line, names a job not written
		// before.
		p, known := numbers[j.PrecedingJob]
		n, ok := numbers[j.JobNumber]
		if !ok {
			next++
			n = next
			numbers[j.JobNumber] = n
		}
		if j.JobNumber != n {
			j.JobNumber, v = n, changed
			c.renumbered = true
		}
		if j.PrecedingJob > 0 {
			if !known {
				// Think time (field 18) is measured from the preceding job's
				// end: without that job it says nothing either.
				p = -1
				cut++
				if j.ThinkTime != -1 {
					j.ThinkTime = -1
				}
			}
			if p != j.PrecedingJob {
				j.PrecedingJob, v = p, changed
			}
		}
		return v
	}}, nil
}

// Id kinds renumbered by anonymize, with their fields and header labels.
var anonKinds = []struct {
	kind  string
	field int
	label string // header label whose lines start with an id of this kind
	text  string // header label describing the ids of this kind in free text
}{
	{"user", swf.FieldUserID, "", ""},
	{"group", swf.FieldGroupID, "", ""},
	{"executable", swf.FieldExecutable, "", ""},
	{"queue", swf.FieldQueue, "Queue", "Queues"},
	{"partition", swf.FieldPartition, "Partition", "Partitions"},
}

// anonymizer renumbers ids 1..N by first appearance, as the archive's converter
// does. Unknown values (negative) are kept, and so is queue 0 (interactive).
type anonymizer struct {
	maps    [5]map[int64]int64
	dropped [5]int // header lines of free text dropped by editHeader, by kind
}

func buildAnonymize(c *Cleaner) (step, error) {
	a := &anonymizer{}
	for k := range a.maps {
		a.maps[k] = map[int64]int64{}
	}
	c.anon = a
	c.edits = append(c.edits, a.editHeader)
	// Its notes come last (Annotate): they read the header with the other
	// steps' notes, which may name ids the renumbering changed.
	return step{job: a.apply}, nil
}

func (a *anonymizer) id(kind int, old int64) int64 {
	if old < 0 || kind == 3 && old == 0 {
		return old
	}
	m := a.maps[kind]
	n, ok := m[old]
	if !ok {
		n = int64(len(m) + 1)
		m[old] = n
	}
	return n
}

func (a *anonymizer) apply(j *swf.Job) verdict {
	v := kept
	for k, ak := range anonKinds {
		old := j.IntField(ak.field) // exactly: ids beyond 2^53 stay distinct
		if n := a.id(k, old); n != old {
			j.SetIntField(ak.field, n)
			v = changed
		}
	}
	return v
}

// editHeader renumbers the leading ids of Queue and Partition lines with the
// same map; ids no record used get the next free numbers, in header order.
//
// The lines that describe queues or partitions in free text (a Queues or
// Partitions line, a Queue or Partition line that does not start with a
// number, as older headers wrote them), with their continuation lines, are
// dropped when the map changed a number of that kind, and notes says so: the
// numbers in them are the input's, which the renumbered field no longer
// matches and which anonymizing means not to publish, and free text cannot be
// renumbered safely (a number in it may be a limit, a count or a time). When
// every number stays, the text still agrees with the records and is kept.
func (a *anonymizer) editHeader(h *swf.Header) {
	for k, ak := range anonKinds {
		if ak.label == "" {
			continue
		}
		var freeText []int // the indexes of its labelled lines
		for i, l := range h.Lines {
			if l.Continuation {
				continue
			}
			if strings.EqualFold(l.Label, ak.text) {
				freeText = append(freeText, i)
				continue
			}
			if !strings.EqualFold(l.Label, ak.label) {
				continue
			}
			words := strings.Fields(l.Value)
			if len(words) == 0 {
				// "; Queue:" with the list in its continuation
				// lines: free text too.
				freeText = append(freeText, i)
				continue
			}
			old, err := strconv.ParseInt(words[0], 10, 64)
			if err != nil {
				freeText = append(freeText, i)
				continue
			}
			n := a.id(k, old)
			rest := strings.TrimSpace(strings.TrimPrefix(l.Value, words[0]))
			value := strconv.FormatInt(n, 10)
			if rest != "" {
				value += " " + rest
			}
			h.Lines[i].Value = value
			h.Lines[i].Raw = "; " + l.Label + ": " + value
		}
		if len(freeText) > 0 && a.renumbered(k) {
			a.dropped[k] += dropLines(h, freeText)
		}
	}
}

// renumbered reports whether anonymize gave an id of this kind a new number.
func (a *anonymizer) renumbered(kind int) bool {
	for old, n := range a.maps[kind] {
		if old != n {
			return true
		}
	}
	return false
}

// dropLines removes the labelled lines of h at the indexes starts
// (increasing), each with its continuation lines, and returns how many lines
// it removed.
func dropLines(h *swf.Header, starts []int) int {
	kept := h.Lines[:0]
	removed := 0
	for i := 0; i < len(h.Lines); i++ {
		if len(starts) == 0 || i != starts[0] {
			kept = append(kept, h.Lines[i])
			continue
		}
		starts = starts[1:]
		removed++
		for i+1 < len(h.Lines) && h.Lines[i+1].Continuation {
			i++
			removed++
		}
	}
	clear(h.Lines[len(kept):])
	h.Lines = kept
	return removed
}

// notes says which free-text header lines editHeader dropped (not what
// they said: that would publish the numbers again), then which of h's lines
// may name ids the renumbering changed (idsInFreeText), warning about each.
func (a *anonymizer) notes(h *swf.Header, warn func(string)) []string {
	var out []string
	for k, n := range a.dropped {
		if n == 0 {
			continue
		}
		ak := anonKinds[k]
		lines := fmt.Sprintf("%d header lines", n)
		if n == 1 {
			lines = "1 header line"
		}
		out = append(out, fmt.Sprintf("rule anonymize: dropped %s describing %ss in free text (%s, or %s without a leading number): "+
			"the %s numbers in them are the input's, not those of the renumbered field %d; --set '%s=TEXT' describes the %ss again",
			lines, ak.kind, ak.text, ak.label, ak.kind, ak.field, ak.text, ak.kind))
	}
	if n := a.idsInFreeText(h, warn); n != "" {
		out = append(out, n)
	}
	return out
}

// Mapping is one renumbered id: kind is user, group, executable, queue or partition.
type Mapping struct {
	Kind     string
	Old, New int64
}

// AnonymizeMapping returns the ids anonymize renumbered, by kind then new id;
// nil when the rule was not selected.
func (c *Cleaner) AnonymizeMapping() []Mapping {
	if c.anon == nil {
		return nil
	}
	var out []Mapping
	for k, ak := range anonKinds {
		start := len(out)
		for old, n := range c.anon.maps[k] {
			out = append(out, Mapping{Kind: ak.kind, Old: old, New: n})
		}
		part := out[start:]
		sort.Slice(part, func(a, b int) bool { return part[a].New < part[b].New })
	}
	return out
}
