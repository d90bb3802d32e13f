package extpolicy

import (
	"strconv"
	"unicode/utf8"

	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/swf"
)

// The engine's messages are written by hand into one reused buffer: a round
// costs its bytes, not reflection (see BenchmarkRound).

// event is a run end reported to the program: the job and when it ended.
type event struct {
	id   int32
	time int64
}

func appendHello(b []byte, s *sim.Sim, procsFrom string, seed int64, hdr *swf.Header) []byte {
	b = append(b, `{"type":"hello","protocol":`...)
	b = strconv.AppendInt(b, Version, 10)
	b = append(b, `,"supports":["start","timer","start_head","quiet_ends"],"procs":`...)
	b = strconv.AppendInt(b, s.Procs(), 10)
	b = append(b, `,"no_kill":`...)
	b = strconv.AppendBool(b, s.NoKill())
	b = append(b, `,"procs_from":`...)
	b = appendString(b, procsFrom)
	b = append(b, `,"jobs":`...)
	b = strconv.AppendInt(b, int64(s.NumJobs()), 10)
	b = append(b, `,"seed":`...)
	b = strconv.AppendInt(b, seed, 10)
	b = append(b, `,"header":[`...)
	first := true
	if hdr != nil {
		lines := hdr.Lines
		for i := 0; i < len(lines); i++ {
			l := lines[i]
			if l.Label == "" || l.Continuation {
				continue
			}
			// A continuation line extends its label's value, joined by a newline.
			value := l.Value
			for i+1 < len(lines) && lines[i+1].Continuation {
				i++
				value += "\n" + lines[i].Value
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(b, `{"label":`...)
			b = appendString(b, l.Label)
			b = append(b, `,"value":`...)
			b = appendString(b, value)
			b = append(b, '}')
		}
	}
	return append(b, "]}\n"...)
}

// appendRound writes a round message; arrived, ended and killed are what
// happened since the previous message, timer the time the program's timer
// fired since then (-1: it did not).
// With start_head, begun (non-nil) is the "started" list: the jobs the engine
// started for the program since then, written before "ended".
func appendRound(b []byte, s *sim.Sim, round, timer int64, recs *Records, arrived []int32, ended, killed, begun []event) []byte {
	b = append(b, `{"type":"round","round":`...)
	b = strconv.AppendInt(b, round, 10)
	b = append(b, `,"time":`...)
	b = strconv.AppendInt(b, s.Now(), 10)
	b = append(b, `,"free":`...)
	b = strconv.AppendInt(b, s.FreeProcs(), 10)
	b = append(b, `,"waiting":`...)
	b = strconv.AppendInt(b, int64(s.NumWaiting()), 10)
	b = append(b, `,"running":`...)
	b = strconv.AppendInt(b, int64(len(s.Running())), 10)
	b = append(b, `,"timer":`...)
	b = strconv.AppendInt(b, timer, 10)
	b = appendArrived(b, s, recs, arrived)
	if begun != nil {
		b = appendEvents(b, `,"started":`, begun)
	}
	b = appendEvents(b, `,"ended":`, ended)
	b = appendEvents(b, `,"killed":`, killed)
	return append(b, "}\n"...)
}

// appendArrived writes the "arrived" list: the jobs' ids, submit times,
// processors, estimates and records.
func appendArrived(b []byte, s *sim.Sim, recs *Records, arrived []int32) []byte {
	b = append(b, `,"arrived":[`...)
	for i, id := range arrived {
		if i > 0 {
			b = append(b, ',')
		}
		j := s.Job(id)
		b = append(b, `{"id":`...)
		b = strconv.AppendInt(b, int64(id), 10)
		b = append(b, `,"submit":`...)
		b = strconv.AppendInt(b, j.Submit, 10)
		b = append(b, `,"procs":`...)
		b = strconv.AppendInt(b, int64(j.Procs), 10)
		b = append(b, `,"estimate":`...)
		b = strconv.AppendInt(b, j.Estimate, 10)
		b = append(b, ',')
		b = append(b, recs.record(id)...)
		b = append(b, '}')
	}
	return append(b, ']')
}

// totals are the run's figures in the final message.
type totals struct {
	jobs, completed, killed int64
	rounds, engineRounds    int64
	lastEnd, waitSum        int64
}

// appendEnd writes the final message. With start_head, begun (non-nil) is
// the "started" list, written after "arrived": jobs that arrived since the
// last round message, which the engine started, so that every job a program
// is told of in "started" or "ended" has come in an "arrived" list.
func appendEnd(b []byte, s *sim.Sim, recs *Records, arrived []int32, begun, ended, killed []event, t totals) []byte {
	b = append(b, `{"type":"end","time":`...)
	b = strconv.AppendInt(b, now(s), 10)
	if begun != nil {
		b = appendArrived(b, s, recs, arrived)
		b = appendEvents(b, `,"started":`, begun)
	}
	b = appendEvents(b, `,"ended":`, ended)
	b = appendEvents(b, `,"killed":`, killed)
	b = append(b, `,"totals":{"jobs":`...)
	b = strconv.AppendInt(b, t.jobs, 10)
	b = append(b, `,"completed":`...)
	b = strconv.AppendInt(b, t.completed, 10)
	b = append(b, `,"killed":`...)
	b = strconv.AppendInt(b, t.killed, 10)
	b = append(b, `,"rounds":`...)
	b = strconv.AppendInt(b, t.rounds, 10)
	b = append(b, `,"engine_rounds":`...)
	b = strconv.AppendInt(b, t.engineRounds, 10)
	b = append(b, `,"last_end":`...)
	b = strconv.AppendInt(b, t.lastEnd, 10)
	b = append(b, `,"wait_sum":`...)
	b = strconv.AppendInt(b, t.waitSum, 10)
	return append(b, "}}\n"...)
}

func appendEvents(b []byte, key string, evs []event) []byte {
	b = append(b, key...)
	b = append(b, '[')
	for i, e := range evs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = strconv.AppendInt(b, int64(e.id), 10)
		b = append(b, `,"time":`...)
		b = strconv.AppendInt(b, e.time, 10)
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendString appends s as a JSON string: ", \ and control characters are
// escaped, invalid UTF-8 becomes U+FFFD (as encoding/json does).
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\t':
				b = append(b, '\\', 't')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c < 0x20 || c == 0x7f:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
