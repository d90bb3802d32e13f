package stats

// Span is one scheduled job as a figure draws it: when it waited and ran, on
// how many processors, and the groups it belongs to.
type Span struct {
	Number             int64
	Submit, Start, End int64 // seconds, as in the trace
	Procs              int64 // per Config.ProcsFrom
	User, Status       int64 // fields 12 and 11; -1 unknown
	Category           string
	Killed             bool // swfsim's killed=1 token
}

// Spans returns every job read (warm-up and cool-down too, like the machine
// metrics) whose submit, wait, runtime and processors are known, in file order.
func (c *Collector) Spans() []Span {
	out := make([]Span, 0, len(c.records))
	for i := range c.records {
		r := &c.records[i]
		if !r.placed() {
			continue
		}
		out = append(out, Span{Number: r.number, Submit: r.submit, Start: r.start(), End: r.end(), Procs: r.procs,
			User: r.user, Status: r.status, Category: c.cfg.groupOf(ByCategory, r), Killed: r.killed})
	}
	return out
}
