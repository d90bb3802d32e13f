package clean

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/swfkit/swfkit/pkg/swf"
)

// A Filter is a boolean expression over a job's fields in the syntax the
// Parallel Workloads Archive uses to describe its cleaned logs, for example
//
//	user=374 and job>14968 and job<28553
//	user=4 and (job>=3874 and job<=5925)
//
// Grammar: expr = term {"or" term}; term = factor {"and" factor};
// factor = "not" factor | "(" expr ")" | NAME OP VALUE, with OP one of
// = == != <> < <= > >=. "and", "or" and "not" are case-insensitive; "&&", "||"
// and "!" are accepted too. Numbers may be negative or have a fraction (field 6).
// Names are listed in FilterFields. A comparison with an unknown value (-1)
// compares -1 like any other number, as the archive's filters do.
//
// The times submit, start and end may also be compared with a date, as in the
// archive's "submit<=2006-12-18 00:00:00": YYYY-MM-DD[ HH:MM[:SS]] in the
// log's time zone (header TimeZoneString, else TimeZone in seconds east of UTC,
// else UTC), converted with the header's UnixStartTime; see Bind.
type Filter struct {
	src        string
	root       node
	dates      []*cmpNode
	jobNumbers bool     // NamesJobNumbers
	fields     []string // the distinct names compared, in order (UnknownTally's index)
}

// FilterField describes one name usable in a filter.
type FilterField struct {
	Name    string
	Aliases []string
	Field   int // SWF field number, 0 for a derived value
	Summary string
}

// FilterFields lists the names a filter may use, in SWF field order, then the
// derived ones.
var FilterFields = []FilterField{
	{"job", nil, swf.FieldJobNumber, "job number (field 1)"},
	{"submit", nil, swf.FieldSubmitTime, "submit time, s (field 2)"},
	{"wait", nil, swf.FieldWaitTime, "wait time, s (field 3)"},
	{"run", []string{"runtime"}, swf.FieldRunTime, "run time, s (field 4)"},
	{"procs", []string{"proc", "alloc"}, swf.FieldAllocatedProcs, "allocated processors (field 5)"},
	{"cpu", nil, swf.FieldAverageCPUTime, "average CPU time, s (field 6)"},
	{"mem", nil, swf.FieldUsedMemory, "used memory, KB per processor (field 7)"},
	{"req_procs", []string{"req_proc", "rproc"}, swf.FieldRequestedProcs, "requested processors (field 8)"},
	{"req_time", []string{"req", "estimate"}, swf.FieldRequestedTime, "requested time, s (field 9)"},
	{"req_mem", nil, swf.FieldRequestedMemory, "requested memory, KB per processor (field 10)"},
	{"status", nil, swf.FieldStatus, "status (field 11)"},
	{"user", nil, swf.FieldUserID, "user id (field 12)"},
	{"group", nil, swf.FieldGroupID, "group id (field 13)"},
	{"app", []string{"exe"}, swf.FieldExecutable, "executable (application) number (field 14)"},
	{"queue", nil, swf.FieldQueue, "queue number (field 15)"},
	{"partition", nil, swf.FieldPartition, "partition number (field 16)"},
	{"prev", nil, swf.FieldPrecedingJob, "preceding job number (field 17)"},
	{"think", nil, swf.FieldThinkTime, "think time from preceding job, s (field 18)"},
	{"start", nil, 0, "submit + wait, -1 when either is unknown"},
	{"end", nil, 0, "submit + wait + run, -1 when any is unknown"},
}

// FilterFieldNames returns every accepted name (including aliases), sorted.
func FilterFieldNames() []string {
	var names []string
	for _, f := range FilterFields {
		names = append(names, f.Name)
		names = append(names, f.Aliases...)
	}
	sort.Strings(names)
	return names
}

// ParseFilter parses a filter expression.
func ParseFilter(src string) (*Filter, error) {
	p := &filterParser{src: src}
	if err := p.lex(); err != nil {
		return nil, err
	}
	if len(p.toks) == 0 {
		return nil, fmt.Errorf("filter %q: empty expression", src)
	}
	n, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.pos < len(p.toks) {
		return nil, p.errorf("unexpected %q", p.toks[p.pos].text)
	}
	return &Filter{src: src, root: n, dates: p.dates, jobNumbers: p.jobNumbers, fields: p.fields}, nil
}

// String returns the expression as given.
func (f *Filter) String() string { return f.src }

// Match reports whether the job satisfies the expression. A filter with dates
// must be bound to its trace's header first (Bind); unbound, it panics.
func (f *Filter) Match(j *swf.Job) bool { return f.root.eval(j, nil) }

// UnknownTally counts, per name a filter compares, the records it compared
// with an unknown value (-1; start and end are -1 when a time they add is
// unknown): each such comparison matches as -1 would, which can drop (or
// keep) every job of a trace whose field is unknown throughout. A record
// counts once per name, however often the filter names it; a comparison
// that and/or short-circuits past is not made and not counted, nor is one
// with -1 itself (prev=-1, wait!=-1), which means the unknown value.
type UnknownTally struct {
	filter *Filter
	counts []int
	last   []int // the record (seq) last counted, per name
	seq    int
}

// NewUnknownTally returns a tally for MatchCounting.
func (f *Filter) NewUnknownTally() *UnknownTally {
	return &UnknownTally{filter: f, counts: make([]int, len(f.fields)), last: make([]int, len(f.fields))}
}

// MatchCounting is Match that also counts, in t, the comparisons with an
// unknown value. It does not allocate.
func (f *Filter) MatchCounting(j *swf.Job, t *UnknownTally) bool {
	t.seq++
	return f.root.eval(j, t)
}

// String says, per name, how many records were compared with it unknown
// ("43778 records compared with start unknown (-1)"), "" when none were.
func (t *UnknownTally) String() string {
	var parts []string
	for i, n := range t.counts {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%s compared with %s unknown (-1)", recordCount(n), t.filter.fields[i]))
		}
	}
	return strings.Join(parts, ", ")
}

func (t *UnknownTally) count(field int) {
	if t.last[field] != t.seq {
		t.last[field] = t.seq
		t.counts[field]++
	}
}

func recordCount(n int) string {
	if n == 1 {
		return "1 record"
	}
	return strconv.Itoa(n) + " records"
}

// NamesJobNumbers reports whether the filter compares a job number: the
// job's own (job), or its preceding job's (prev) with a number above 0
// (prev=-1, no preceding job, names none).
func (f *Filter) NamesJobNumbers() bool { return f.jobNumbers }

// HasDates reports whether the filter compares a time with a date.
func (f *Filter) HasDates() bool { return len(f.dates) > 0 }

// Bind converts the filter's dates to seconds since the log's start using the
// header's UnixStartTime and time zone. It is needed only when HasDates.
func (f *Filter) Bind(h *swf.Header) error {
	if len(f.dates) == 0 {
		return nil
	}
	start, ok, err := h.UnixStartTime()
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("filter %q: a date needs the header's UnixStartTime", f.src)
	}
	loc, _, err := h.Zone()
	if err != nil {
		return fmt.Errorf("filter %q: a date needs the log's time zone: %v", f.src, err)
	}
	for _, n := range f.dates {
		t, err := parseDate(n.date, loc)
		if err != nil {
			return fmt.Errorf("filter %q: %v", f.src, err)
		}
		// In float64: a hostile UnixStartTime near int64's ends must not wrap.
		n.num, n.bound = float64(t.Unix())-float64(start), true
	}
	return nil
}

func parseDate(s string, loc *time.Location) (time.Time, error) {
	for _, layout := range []string{"2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			if t.Format(layout) != s {
				// Go moves a local time in a summer-time gap by the gap.
				return time.Time{}, fmt.Errorf("%q does not exist in the time zone %s (the clocks skipped it)", s, loc)
			}
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a date of the form YYYY-MM-DD[ HH:MM[:SS]]", s)
}

// node is a filter expression; eval counts unknown values in t when not nil.
type node interface {
	eval(j *swf.Job, t *UnknownTally) bool
}

type andNode struct{ left, right node }
type orNode struct{ left, right node }
type notNode struct{ inner node }
type cmpNode struct {
	value func(j *swf.Job) float64
	// ivalue reads an integer field exactly; with an integer literal (exact)
	// the comparison is between int64s, so that job=9007199254740993 does not
	// match 9007199254740992, as it would through float64.
	ivalue func(j *swf.Job) int64
	op     string
	num    float64
	inum   int64
	exact  bool
	date   string // a date literal, converted to num by Filter.Bind
	bound  bool
	field  int // index of the name in Filter.fields
	// named: the literal is -1, the unknown value itself (keep prev=-1):
	// the comparison meant it, and is not counted in UnknownTally.
	named bool
}

func (n andNode) eval(j *swf.Job, t *UnknownTally) bool {
	return n.left.eval(j, t) && n.right.eval(j, t)
}
func (n orNode) eval(j *swf.Job, t *UnknownTally) bool {
	return n.left.eval(j, t) || n.right.eval(j, t)
}
func (n notNode) eval(j *swf.Job, t *UnknownTally) bool { return !n.inner.eval(j, t) }

func (n *cmpNode) eval(j *swf.Job, t *UnknownTally) bool {
	if n.date != "" && !n.bound {
		panic("clean: filter with a date used before Bind")
	}
	if n.exact {
		v := n.ivalue(j)
		if t != nil && v == -1 && !n.named {
			t.count(n.field)
		}
		return compare(v, n.op, n.inum)
	}
	v := n.value(j)
	if t != nil && v == -1 && !n.named {
		t.count(n.field)
	}
	return compare(v, n.op, n.num)
}

// compare applies a filter operator.
func compare[T int64 | float64](v T, op string, num T) bool {
	switch op {
	case "=":
		return v == num
	case "!=":
		return v != num
	case "<":
		return v < num
	case "<=":
		return v <= num
	case ">":
		return v > num
	default: // ">="
		return v >= num
	}
}

// lookupFilterField returns the FilterField a filter name stands for: its
// name or an alias, in any case.
func lookupFilterField(name string) (FilterField, bool) {
	lower := strings.ToLower(name)
	for _, f := range FilterFields {
		if f.Name == lower || slices.Contains(f.Aliases, lower) {
			return f, true
		}
	}
	return FilterField{}, false
}

// valueFunc returns the accessor of a filter field.
func valueFunc(f FilterField) func(j *swf.Job) float64 {
	switch {
	case f.Field > 0:
		n := f.Field
		return func(j *swf.Job) float64 { return j.Field(n) }
	case f.Name == "start":
		return func(j *swf.Job) float64 { return float64(startTime(j)) }
	default:
		return func(j *swf.Job) float64 { return float64(endTime(j)) }
	}
}

// intValueFunc returns the exact accessor of an integer filter field (every
// field but 6), or nil.
func intValueFunc(f FilterField) func(j *swf.Job) int64 {
	switch {
	case f.Field == swf.FieldAverageCPUTime:
		return nil
	case f.Field > 0:
		n := f.Field
		return func(j *swf.Job) int64 { return j.IntField(n) }
	case f.Name == "start":
		return startTime
	default:
		return endTime
	}
}

// namesJobNumber reports whether comparing filter field f with num names a
// job number: any comparison of job (field 1), one of prev (field 17) with a
// number above 0. A preceding job of 0 or below is no job's (-1 is unknown),
// and rule renumber keeps it as read, so keep prev=-1 means the same on the
// output.
func namesJobNumber(f FilterField, num float64) bool {
	return f.Field == swf.FieldJobNumber || f.Field == swf.FieldPrecedingJob && num > 0
}

func startTime(j *swf.Job) int64 {
	if j.SubmitTime < 0 || j.WaitTime < 0 {
		return -1
	}
	return j.SubmitTime + j.WaitTime
}

func endTime(j *swf.Job) int64 {
	s := startTime(j)
	if s < 0 || j.RunTime < 0 {
		return -1
	}
	return s + j.RunTime
}

type token struct {
	kind byte // 'n' name, '#' number, 'o' comparison, '(' , ')', '&', '|', '!'
	text string
	pos  int
}

type filterParser struct {
	src        string
	toks       []token
	pos        int
	dates      []*cmpNode
	jobNumbers bool     // a comparison naming a job number was read (namesJobNumber)
	fields     []string // Filter.fields
}

// fieldIndex returns the index of a field's name in p.fields, adding it.
func (p *filterParser) fieldIndex(name string) int {
	if i := slices.Index(p.fields, name); i >= 0 {
		return i
	}
	p.fields = append(p.fields, name)
	return len(p.fields) - 1
}

func (p *filterParser) errorf(format string, args ...any) error {
	at := len(p.src)
	if p.pos < len(p.toks) {
		at = p.toks[p.pos].pos
	}
	return fmt.Errorf("filter %q: at column %d: %s", p.src, at+1, fmt.Sprintf(format, args...))
}

func (p *filterParser) lex() error {
	s := p.src
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '(' || c == ')':
			p.toks = append(p.toks, token{kind: c, text: s[i : i+1], pos: i})
			i++
		case c == '&' && i+1 < len(s) && s[i+1] == '&':
			p.toks = append(p.toks, token{kind: '&', text: "&&", pos: i})
			i += 2
		case c == '|' && i+1 < len(s) && s[i+1] == '|':
			p.toks = append(p.toks, token{kind: '|', text: "||", pos: i})
			i += 2
		case c == '=' || c == '<' || c == '>' || c == '!':
			op := s[i : i+1]
			if i+1 < len(s) && (s[i+1] == '=' || c == '<' && s[i+1] == '>') {
				op = s[i : i+2]
			}
			if op == "!" {
				p.toks = append(p.toks, token{kind: '!', text: op, pos: i})
			} else {
				p.toks = append(p.toks, token{kind: 'o', text: op, pos: i})
			}
			i += len(op)
		case isDateAt(s, i):
			j := i + 10
			if k := timeEnd(s, j); k > j {
				j = k
			}
			p.toks = append(p.toks, token{kind: 'd', text: s[i:j], pos: i})
			i = j
		case c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9':
			j := i + 1
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' || s[j] == 'e' || s[j] == 'E') {
				j++
			}
			p.toks = append(p.toks, token{kind: '#', text: s[i:j], pos: i})
			i = j
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i + 1
			for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			word := s[i:j]
			switch strings.ToLower(word) {
			case "and":
				p.toks = append(p.toks, token{kind: '&', text: word, pos: i})
			case "or":
				p.toks = append(p.toks, token{kind: '|', text: word, pos: i})
			case "not":
				p.toks = append(p.toks, token{kind: '!', text: word, pos: i})
			default:
				p.toks = append(p.toks, token{kind: 'n', text: word, pos: i})
			}
			i = j
		default:
			return fmt.Errorf("filter %q: at column %d: unexpected character %q", p.src, i+1, c)
		}
	}
	return nil
}

func (p *filterParser) peek() byte {
	if p.pos < len(p.toks) {
		return p.toks[p.pos].kind
	}
	return 0
}

func (p *filterParser) expr() (node, error) {
	left, err := p.term()
	if err != nil {
		return nil, err
	}
	for p.peek() == '|' {
		p.pos++
		right, err := p.term()
		if err != nil {
			return nil, err
		}
		left = orNode{left, right}
	}
	return left, nil
}

func (p *filterParser) term() (node, error) {
	left, err := p.factor()
	if err != nil {
		return nil, err
	}
	for p.peek() == '&' {
		p.pos++
		right, err := p.factor()
		if err != nil {
			return nil, err
		}
		left = andNode{left, right}
	}
	return left, nil
}

func (p *filterParser) factor() (node, error) {
	switch p.peek() {
	case '!':
		p.pos++
		inner, err := p.factor()
		if err != nil {
			return nil, err
		}
		return notNode{inner}, nil
	case '(':
		p.pos++
		inner, err := p.expr()
		if err != nil {
			return nil, err
		}
		if p.peek() != ')' {
			return nil, p.errorf("expected \")\"")
		}
		p.pos++
		return inner, nil
	case 'n':
		return p.comparison()
	case 0:
		return nil, p.errorf("unexpected end of expression, expected a comparison such as user=3")
	}
	return nil, p.errorf("unexpected %q, expected a comparison such as user=3", p.toks[p.pos].text)
}

func (p *filterParser) comparison() (node, error) {
	name := p.toks[p.pos].text
	field, ok := lookupFilterField(name)
	if !ok {
		return nil, p.errorf("unknown field %q (known: %s)", name, strings.Join(FilterFieldNames(), ", "))
	}
	value := valueFunc(field)
	p.pos++
	if p.peek() != 'o' {
		return nil, p.errorf("expected a comparison operator (=, !=, <, <=, >, >=) after %q", name)
	}
	op := p.toks[p.pos].text
	switch op {
	case "==":
		op = "="
	case "<>":
		op = "!="
	}
	p.pos++
	if p.peek() == 'd' {
		switch strings.ToLower(name) {
		case "submit", "start", "end":
		default:
			return nil, p.errorf("a date compares with submit, start or end, not %q", name)
		}
		text := p.toks[p.pos].text
		// Whether it is a calendar date does not depend on the trace: say
		// so now, as for any other bad value, not at Bind. (Only the time
		// zone's gaps wait for Bind; UTC has none.)
		if _, err := parseDate(text, time.UTC); err != nil {
			return nil, p.errorf("%v", err)
		}
		n := &cmpNode{value: value, op: op, date: text, field: p.fieldIndex(field.Name)}
		p.dates = append(p.dates, n)
		p.pos++
		return n, nil
	}
	if p.peek() != '#' {
		return nil, p.errorf("expected a number after %s%s", name, op)
	}
	text := p.toks[p.pos].text
	num, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return nil, p.errorf("%q is not a number", text)
	}
	p.pos++
	p.jobNumbers = p.jobNumbers || namesJobNumber(field, num)
	n := &cmpNode{value: value, op: op, num: num, ivalue: intValueFunc(field), field: p.fieldIndex(field.Name), named: num == -1}
	if i, err := strconv.ParseInt(text, 10, 64); err == nil && n.ivalue != nil {
		n.inum, n.exact = i, true
	}
	return n, nil
}

func isDigits(s string, i, n int) bool {
	if i+n > len(s) {
		return false
	}
	for _, c := range []byte(s[i : i+n]) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// isDateAt reports whether s holds YYYY-MM-DD at i.
func isDateAt(s string, i int) bool {
	return isDigits(s, i, 4) && i+10 <= len(s) && s[i+4] == '-' && isDigits(s, i+5, 2) &&
		s[i+7] == '-' && isDigits(s, i+8, 2)
}

// timeEnd returns the end of " HH:MM[:SS]" starting at i, or i.
func timeEnd(s string, i int) int {
	if !(i+6 <= len(s) && s[i] == ' ' && isDigits(s, i+1, 2) && s[i+3] == ':' && isDigits(s, i+4, 2)) {
		return i
	}
	if i+9 <= len(s) && s[i+6] == ':' && isDigits(s, i+7, 2) {
		return i + 9
	}
	return i + 6
}
