package main

import (
	"bytes"
	"errors"
	"fmt"
)

// A hand-written reader of the engine's JSON messages: the keys easy-go
// needs are decoded into reused slices and every other value is skipped, in
// any key order, so that a message costs no allocation (encoding/json
// allocates per message and was most of easy-go's own time).

// scanner walks one JSON line; the first error stops it.
type scanner struct {
	b   []byte
	i   int
	err error
}

func (s *scanner) fail(what string) {
	if s.err == nil {
		s.err = fmt.Errorf("malformed message at byte %d: %s", s.i, what)
	}
	s.i = len(s.b)
}

func (s *scanner) peek() byte {
	for s.i < len(s.b) {
		switch c := s.b[s.i]; c {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return c
		}
	}
	return 0
}

func (s *scanner) expect(c byte) {
	if s.peek() != c {
		s.fail(fmt.Sprintf("want %q", c))
		return
	}
	s.i++
}

// more reports whether an object or array goes on: it consumes the closing
// byte or, after the first element, the comma.
func (s *scanner) more(end byte, first *bool) bool {
	c := s.peek()
	if s.err != nil || c == end {
		s.i++
		return false
	}
	if !*first {
		if c != ',' {
			s.fail("want ',' or the end")
			return false
		}
		s.i++
	}
	*first = false
	return true
}

// str returns a string's bytes as written (escapes not decoded).
func (s *scanner) str() []byte {
	s.expect('"')
	start := s.i
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case '\\':
			s.i += 2
			continue
		case '"':
			s.i++
			return s.b[start : s.i-1]
		}
		s.i++
	}
	s.fail("unterminated string")
	return nil
}

// key reads an object key and its colon.
func (s *scanner) key() []byte {
	k := s.str()
	s.expect(':')
	return k
}

func (s *scanner) int() int64 {
	s.peek()
	neg := s.i < len(s.b) && s.b[s.i] == '-'
	if neg {
		s.i++
	}
	start := s.i
	var v int64
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		v = v*10 + int64(s.b[s.i]-'0')
		s.i++
	}
	if s.i == start || s.i-start > 18 {
		s.fail("want an integer")
	}
	if neg {
		return -v
	}
	return v
}

func (s *scanner) bool() bool {
	s.peek()
	switch {
	case bytes.HasPrefix(s.b[s.i:], []byte("true")):
		s.i += 4
		return true
	case bytes.HasPrefix(s.b[s.i:], []byte("false")):
		s.i += 5
		return false
	}
	s.fail("want true or false")
	return false
}

// skip passes over any value.
func (s *scanner) skip() {
	switch s.peek() {
	case '"':
		s.str()
	case '{':
		s.i++
		for first := true; s.more('}', &first); {
			s.key()
			s.skip()
		}
	case '[':
		s.i++
		for first := true; s.more(']', &first); {
			s.skip()
		}
	default: // a number, true, false or null
		start := s.i
		for s.i < len(s.b) {
			c := s.b[s.i]
			if c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				break
			}
			s.i++
		}
		if s.i == start {
			s.fail("want a value")
		}
	}
}

// skipNumbers passes over an array of numbers (an arrival's 18 fields, most
// of each message's bytes) in one search for its end.
func (s *scanner) skipNumbers() {
	s.expect('[')
	end := bytes.IndexByte(s.b[s.i:], ']')
	if end < 0 {
		s.fail("unterminated array")
		return
	}
	s.i += end + 1
}

// events reads a list of {"id","time"} into evs[:0].
func (s *scanner) events(evs []event) []event {
	evs = evs[:0]
	s.expect('[')
	for first := true; s.more(']', &first); {
		var ev event
		s.expect('{')
		for f := true; s.more('}', &f); {
			switch string(s.key()) {
			case "id":
				ev.id = int32(s.int())
			case "time":
				ev.time = s.int()
			default:
				s.skip()
			}
		}
		evs = append(evs, ev)
	}
	return evs
}

// jobs reads the arrivals into js[:0]: id, procs and estimate.
func (s *scanner) jobs(js []job) []job {
	js = js[:0]
	s.expect('[')
	for first := true; s.more(']', &first); {
		var j job
		s.expect('{')
		for f := true; s.more('}', &f); {
			switch string(s.key()) {
			case "id":
				j.id = int32(s.int())
			case "procs":
				j.procs = s.int()
			case "estimate":
				j.estimate = s.int()
			case "fields":
				s.skipNumbers()
			default:
				s.skip()
			}
		}
		js = append(js, j)
	}
	return js
}

var errNoType = errors.New("malformed message: no type")

// parse reads one message line into m, reusing its slices.
func (m *message) parse(line []byte) error {
	s := scanner{b: line}
	m.kind = nil
	m.supports = m.supports[:0]
	m.arrived, m.started, m.ended, m.killed = m.arrived[:0], m.started[:0], m.ended[:0], m.killed[:0]
	s.expect('{')
	for first := true; s.more('}', &first); {
		switch string(s.key()) {
		case "type":
			m.kind = s.str()
		case "protocol":
			m.protocol = s.int()
		case "no_kill":
			m.noKill = s.bool()
		case "jobs":
			m.jobs = s.int()
		case "time":
			m.time = s.int()
		case "free":
			m.free = s.int()
		case "supports":
			s.expect('[')
			for f := true; s.more(']', &f); {
				m.supports = append(m.supports, s.str())
			}
		case "arrived":
			m.arrived = s.jobs(m.arrived)
		case "started":
			m.started = s.events(m.started)
		case "ended":
			m.ended = s.events(m.ended)
		case "killed":
			m.killed = s.events(m.killed)
		default:
			s.skip()
		}
	}
	if s.err != nil {
		return s.err
	}
	if s.peek() != 0 {
		return fmt.Errorf("malformed message: more after the object at byte %d", s.i)
	}
	if m.kind == nil {
		return errNoType
	}
	return nil
}
