package swf

import (
	"strconv"
	"strings"
)

// HeaderLine is one comment line of the header.
type HeaderLine struct {
	// Raw is the line as read (without its newline), or as built by Set/AddNote.
	Raw string
	// Label is the label of a "; Label: value" line; for a continuation line (a
	// comment without a label that follows a labelled line) it is the label the
	// line continues. Empty for other comment lines, such as the closing ";".
	Label string
	// Value is the text after "Label:" (or the continuation text), trimmed.
	Value string
	// Continuation marks a line that extends the previous label's value.
	Continuation bool
	// Line is the 1-based line number in the input, 0 for an added line.
	Line int
}

// Header is the comment block at the start of a trace, every line kept in order.
// The zero value is an empty header.
type Header struct {
	Lines []HeaderLine
	// File names the trace in errors from the typed accessors.
	File string
}

// parseHeaderLine splits a comment line into label and value. prev is the label
// of the previous header line, for continuation lines.
func parseHeaderLine(raw string, lineNo int, prev string) HeaderLine {
	hl := HeaderLine{Raw: raw, Line: lineNo}
	s := strings.TrimLeft(raw, " \t")
	s = strings.TrimPrefix(s, ";")
	s = strings.TrimRight(s, " \t\r")
	body := strings.TrimLeft(s, " \t")
	if label, value, ok := splitLabel(body); ok {
		hl.Label, hl.Value = label, value
		return hl
	}
	if body != "" && prev != "" {
		hl.Label, hl.Value, hl.Continuation = prev, body, true
		return hl
	}
	hl.Value = body
	return hl
}

// splitLabel recognises "Label: value": an identifier, a colon, then a blank or
// the end of the line (so "http://..." is not a label). A label the format
// defines (formatLabels) is also recognised without the blank after the
// colon or with blanks before it ("MaxProcs:128", "MaxProcs : 128"), as
// hand-edited headers have them: read as a comment, such a MaxProcs would
// leave the machine size unknown without a word.
func splitLabel(s string) (label, value string, ok bool) {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || i > 0 && c >= '0' && c <= '9' {
			i++
			continue
		}
		break
	}
	if i == 0 {
		return "", "", false
	}
	colon := i
	for colon < len(s) && (s[colon] == ' ' || s[colon] == '\t') {
		colon++
	}
	if colon >= len(s) || s[colon] != ':' {
		return "", "", false
	}
	blank := colon+1 == len(s) || s[colon+1] == ' ' || s[colon+1] == '\t'
	if (colon > i || !blank) && !formatLabels[strings.ToLower(s[:i])] {
		return "", "", false
	}
	return s[:i], strings.TrimSpace(s[colon+1:]), true
}

// CommentLabel reads a comment line as a header line would be read: the
// label and value of "; MaxProcs: 8" (in the spellings the header accepts,
// "MaxProcs:8", "maxprocs : 8"); ok is false for a comment without a
// label. Tools use it on comments after the first record, which are not
// header (traces concatenated with cat leave the second one's header there).
func CommentLabel(raw string) (label, value string, ok bool) {
	hl := parseHeaderLine(raw, 0, "")
	if hl.Label == "" {
		return "", "", false
	}
	return hl.Label, hl.Value, true
}

// IsFormatLabel reports whether the SWF definition gives this header label
// (any case).
func IsFormatLabel(label string) bool { return formatLabels[strings.ToLower(label)] }

// IsRepeatable reports whether the format lets a header carry this label on
// several lines (Note, Queue, Partition; any case).
func IsRepeatable(label string) bool { return repeatable[strings.ToLower(label)] }

// formatLabels are the header labels the SWF definition gives (lower case).
var formatLabels = map[string]bool{
	"version": true, "computer": true, "installation": true, "acknowledge": true,
	"information": true, "conversion": true, "maxjobs": true, "maxrecords": true,
	"preemption": true, "unixstarttime": true, "timezone": true, "timezonestring": true,
	"starttime": true, "endtime": true, "maxnodes": true, "maxprocs": true,
	"maxruntime": true, "maxmemory": true, "allowoveruse": true, "maxqueues": true,
	"queues": true, "queue": true, "maxpartitions": true, "partitions": true,
	"partition": true, "note": true,
}

// Get returns the value of the first line with this label (case-insensitive).
func (h *Header) Get(label string) (string, bool) {
	for _, l := range h.Lines {
		if !l.Continuation && strings.EqualFold(l.Label, label) {
			return l.Value, true
		}
	}
	return "", false
}

// GetAll returns the values of every line with this label, in order.
func (h *Header) GetAll(label string) []string {
	var out []string
	for _, l := range h.Lines {
		if !l.Continuation && strings.EqualFold(l.Label, label) {
			out = append(out, l.Value)
		}
	}
	return out
}

// Int returns the leading integer of a label's value ("9216 (8 partitions)"
// gives 9216, "64800 seconds" 64800). ok is false when the label is absent; a
// present label whose value does not start with an integer is a *ParseError
// wrapping ErrHeaderValue. So is one whose integer goes on with digits after a
// blank ("4 096", digit groups): read up to the blank it would be 4, a machine
// a thousand times too small, as "4,096" is refused.
func (h *Header) Int(label string) (v int64, ok bool, err error) {
	for _, l := range h.Lines {
		if l.Continuation || !strings.EqualFold(l.Label, label) {
			continue
		}
		num, rest := l.Value, ""
		if i := strings.IndexAny(num, " \t("); i >= 0 {
			num, rest = num[:i], num[i:]
		}
		v, res := parseInt([]byte(num))
		grouped := res == numOK && startsWithDigit(strings.TrimLeft(rest, " \t"))
		if res != numOK || grouped {
			expected := "an integer"
			switch {
			case res == numRange:
				expected = "an integer within ±9223372036854775807 (64 bits)"
			case grouped:
				expected = "an integer without blanks between its digits (digit groups)"
			}
			return 0, true, &ParseError{File: h.File, Line: l.Line, Err: ErrHeaderValue,
				Detail: "header label " + l.Label + ": expected " + expected + ", got " + strconv.Quote(l.Value)}
		}
		return v, true, nil
	}
	return 0, false, nil
}

func startsWithDigit(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }

// MaxProcs returns the MaxProcs label.
func (h *Header) MaxProcs() (int64, bool, error) { return h.Int("MaxProcs") }

// MaxNodes returns the MaxNodes label.
func (h *Header) MaxNodes() (int64, bool, error) { return h.Int("MaxNodes") }

// NotAMachineSize says why the header gives no machine size when it has
// one of MaxProcs and MaxNodes with an integer value below 1: "the header's
// MaxProcs -5 is not a machine size", naming the first such label and its
// value; "" when there is none. It is the one wording every tool uses for a
// message that would otherwise say the labels are missing; each tool adds
// its own remedy (--procs).
//
// A label whose value is not an integer at all (swfclean --check reads on
// past it) is named too: "the header's MaxProcs "4 096" is not a whole
// number".
func (h *Header) NotAMachineSize() string {
	for _, label := range []string{"MaxProcs", "MaxNodes"} {
		v, ok, err := h.Int(label)
		if err != nil {
			raw, _ := h.Get(label)
			return "the header's " + label + " " + strconv.Quote(raw) + " is not a whole number"
		}
		if ok && v < 1 {
			return "the header's " + label + " " + strconv.FormatInt(v, 10) + " is not a machine size"
		}
	}
	return ""
}

// MaxJobs returns the MaxJobs label.
func (h *Header) MaxJobs() (int64, bool, error) { return h.Int("MaxJobs") }

// MaxRecords returns the MaxRecords label.
func (h *Header) MaxRecords() (int64, bool, error) { return h.Int("MaxRecords") }

// UnixStartTime returns the UnixStartTime label.
func (h *Header) UnixStartTime() (int64, bool, error) { return h.Int("UnixStartTime") }

// Preemption returns the Preemption label (No, Yes, Double or TS), "" when absent.
func (h *Header) Preemption() string {
	v, _ := h.Get("Preemption")
	return v
}

// MachineLowerBound ends the Note of a converted log whose MaxProcs or
// MaxNodes is the most its jobs show, not the machine's size ("MaxProcs 256
// is the largest job's, " + MachineLowerBound + " (--procs)"); the
// submission check reads it.
const MachineLowerBound = "a lower bound: the machine size was not given"

// MachineConfirmed follows "Label N " in the Note that swfclean --procs or
// --set adds when it gives the machine's size as the value a lower-bound
// Note gave (MachineLowerBound): the value stands, and is no longer a bound.
const MachineConfirmed = "is the machine's size, not only a lower bound"

// LowerBound reports whether a Note says that label's value is only a
// lower bound on the machine's size (MachineLowerBound), and no later one
// confirms it (MachineConfirmed).
func (h *Header) LowerBound(label string) bool {
	v, ok := h.Get(label)
	if !ok {
		return false
	}
	named := label + " " + strings.TrimSpace(v) + " "
	bound := false
	for _, n := range h.GetAll("Note") {
		switch {
		case strings.HasPrefix(n, named+"is ") && strings.Contains(n, MachineLowerBound):
			bound = true
		case strings.Contains(n, named+MachineConfirmed):
			bound = false
		}
	}
	return bound
}

// QueueLine is one "; Queue: number name details" line.
type QueueLine struct {
	Number  int64
	Name    string
	Details string
}

// Queues returns the parseable Queue lines, in order; lines whose first word is
// not a number are skipped (older versions of the format wrote free text).
func (h *Header) Queues() []QueueLine {
	var out []QueueLine
	for _, v := range h.GetAll("Queue") {
		words := strings.Fields(v)
		if len(words) == 0 {
			continue
		}
		n, err := strconv.ParseInt(words[0], 10, 64)
		if err != nil {
			continue
		}
		q := QueueLine{Number: n}
		if len(words) > 1 {
			q.Name = words[1]
		}
		if len(words) > 2 {
			q.Details = strings.Join(words[2:], " ")
		}
		out = append(out, q)
	}
	return out
}

// Set replaces the first line with this label (and its continuation lines) by
// "; Label: value", or adds that line where AddNote would.
//
// A line replaced keeps the input's spelling up to its value: the label's
// case and the blanks after the colon, which the archive uses to align
// values ("; EndTime:   Fri Aug 29 ..." under "; StartTime: Mon Sep 23 ...").
func (h *Header) Set(label, value string) {
	line := labelled(label, value)
	for i, l := range h.Lines {
		if !l.Continuation && strings.EqualFold(l.Label, label) {
			if k := strings.LastIndex(l.Raw, l.Value); l.Value != "" && k > 0 && strings.TrimSpace(l.Raw[k+len(l.Value):]) == "" {
				line.Raw = l.Raw[:k] + line.Value
				line.Label = l.Label
			}
			h.replace(i, line)
			return
		}
	}
	h.insert(line)
}

// replace puts line in place of the labelled line at i and its continuations.
func (h *Header) replace(i int, line HeaderLine) {
	end := i + 1
	for end < len(h.Lines) && h.Lines[end].Continuation {
		end++
	}
	h.Lines = append(h.Lines[:i], append([]HeaderLine{line}, h.Lines[end:]...)...)
}

// repeatable are the labels the format lets a header carry several times.
var repeatable = map[string]bool{"note": true, "queue": true, "partition": true}

// Apply is what `swfclean --set Label=value` does. A label the format lets
// repeat (Note, Queue, Partition) gets a line of its own, so an existing Note
// is never lost; a Queue or Partition line whose leading number is value's is
// replaced (it redefines that queue). Any other label is Set.
func (h *Header) Apply(label, value string) {
	if !repeatable[strings.ToLower(label)] {
		h.Set(label, value)
		return
	}
	if num, _, _ := strings.Cut(value, " "); num != "" && !strings.EqualFold(label, "Note") {
		for i, l := range h.Lines {
			if l.Continuation || !strings.EqualFold(l.Label, label) {
				continue
			}
			if n, _, _ := strings.Cut(strings.TrimSpace(l.Value), " "); n == num {
				h.replace(i, labelled(label, value))
				return
			}
		}
	}
	h.Add(label, value)
}

// SetCounts sets MaxJobs (distinct job numbers) and MaxRecords (lines) to the
// counts of a trace being written, for tools that drop or add records.
func (h *Header) SetCounts(distinctJobs, records int) {
	h.Set("MaxJobs", strconv.Itoa(distinctJobs))
	h.Set("MaxRecords", strconv.Itoa(records))
}

// AddNote adds a "; Note: text" line at the end of the labelled part of the
// header, before the closing bare ";" lines and any comment block after them.
func (h *Header) AddNote(text string) { h.insert(labelled("Note", text)) }

// Add adds a "; Label: value" line where AddNote would, after every labelled
// line, also when the label is already present (Set replaces instead).
func (h *Header) Add(label, value string) { h.insert(labelled(label, value)) }

// labelled returns the line "; Label: value" a tool adds, on one line.
func labelled(label, value string) HeaderLine {
	value = oneLine(value)
	return HeaderLine{Raw: "; " + label + ": " + value, Label: label, Value: value}
}

// lineBreaks writes a line break as the two characters \n or \r.
var lineBreaks = strings.NewReplacer("\r\n", `\n`, "\n", `\n`, "\r", `\r`)

// oneLine keeps a value added to the header on its own line: a line break in
// it (a file name can hold one) would end the comment, and the rest would be
// read as a record.
func oneLine(s string) string {
	if strings.ContainsAny(s, "\r\n") {
		return lineBreaks.Replace(s)
	}
	return s
}

// insert puts a new line after the last labelled line (or its continuations), so
// added lines stay above the archive's closing ";" and cleaning notes.
func (h *Header) insert(line HeaderLine) {
	at := len(h.Lines)
	for at > 0 && h.Lines[at-1].Label == "" {
		at--
	}
	if at == 0 {
		at = len(h.Lines)
		if at > 0 && h.Lines[at-1].Label == "" && h.Lines[at-1].Value == "" {
			at-- // keep a lone closing ";" last
		}
	}
	h.Lines = append(h.Lines, HeaderLine{})
	copy(h.Lines[at+1:], h.Lines[at:])
	h.Lines[at] = line
}
