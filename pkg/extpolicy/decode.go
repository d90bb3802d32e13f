package extpolicy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Version is the protocol version this package speaks (docs/swfsim-external.md).
const Version = 1

// helloReply is the program's answer to the first message.
type helloReply struct {
	// Protocol is the version the program speaks; it must be Version.
	Protocol *int64 `json:"protocol"`
	// Note is a line the program wants in the output header (its name and
	// parameters), optional.
	Note string `json:"note"`
	// EveryRound asks for a round message in every scheduling round, also
	// those in which no waiting job fits in the free processors.
	EveryRound bool `json:"every_round"`
	// StartHead asks the engine to start waiting jobs in queue order while
	// the first fits, before each round's decision is asked for; the round
	// message then comes only when a waiting job still fits, and lists the
	// engine's starts under "started".
	StartHead bool `json:"start_head"`
}

// reply is the program's answer to a round message.
type reply struct {
	// Start lists the jobs to start now, in order.
	Start []int64 `json:"start"`
	// Timer, when not null, is the next time the program wants a round even
	// if nothing happens then; it replaces the timer it asked for before.
	Timer *int64 `json:"timer"`
	timer int64  // where the fast path points Timer
	// QuietEnds lists running jobs whose end, should it be the only event
	// before the next round, would make the program start nothing: such a
	// round gets no message (its end comes with the next one).
	QuietEnds []int64 `json:"quiet_ends"`
}

// decodeStrict decodes one JSON object from line into v: unknown keys,
// anything after the object, and a value of another type are errors; so are
// a key in another case than v's field tag ("START"), a key given twice and
// a line that is not an object (null), which encoding/json would take.
func decodeStrict(line []byte, v any) error {
	if err := checkKeys(line, v); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if err == io.EOF {
			return errors.New("empty line")
		}
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("more than one JSON value on the line")
	}
	return nil
}

// checkKeys reads the top level of the object on line: it must be an object
// whose keys are each one of v's json field tags, exactly, and once.
func checkKeys(line []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	tok, err := dec.Token()
	if err == io.EOF {
		return errors.New("empty line")
	}
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return errors.New("want a JSON object")
	}
	allowed := jsonKeys(v)
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		switch {
		case !slices.Contains(allowed, key):
			return fmt.Errorf("unknown key %q (want %s, in this case)", key, strings.Join(allowed, ", "))
		case seen[key]:
			return fmt.Errorf("key %q given twice", key)
		}
		seen[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return err
		}
	}
	return nil
}

// jsonKeys returns the json tags of the struct v points to.
func jsonKeys(v any) []string {
	t := reflect.TypeOf(v).Elem()
	var keys []string
	for i := range t.NumField() {
		if tag, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); tag != "" && tag != "-" {
			keys = append(keys, tag)
		}
	}
	return keys
}

func parseHello(line []byte) (helloReply, error) {
	var h helloReply
	if err := decodeStrict(line, &h); err != nil {
		return h, malformed(err, line)
	}
	if h.Protocol == nil {
		return h, fmt.Errorf("%w: the first reply must give the protocol version the program speaks, e.g. {\"protocol\":%d}: %s",
			ErrProtocol, Version, quoteLine(line))
	}
	if *h.Protocol != Version {
		return h, fmt.Errorf("%w: the program speaks protocol %d; this swfsim speaks %d", ErrProtocol, *h.Protocol, Version)
	}
	h.Note = oneLine(h.Note)
	return h, nil
}

// maxNote bounds the program's note in the output header.
const maxNote = 500

// oneLine makes the program's note fit on one header line: control
// characters (C0, DEL, C1 such as U+0085 NEL) and Unicode's line and
// paragraph separators (U+2028, U+2029), which some readers take as line
// ends, become spaces, and it is cut at maxNote bytes (on a rune boundary).
func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
	if len(s) > maxNote {
		cut := maxNote
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}

// parseReply decodes a round reply into r, reusing r.Start. The common shape
// takes a fast path; anything else goes to encoding/json, whose verdict
// decides (so both accept exactly the same replies).
func parseReply(line []byte, r *reply) error {
	if parseReplyFast(line, r) {
		return nil
	}
	r.Start, r.Timer, r.QuietEnds = r.Start[:0], nil, r.QuietEnds[:0]
	if err := decodeStrict(line, r); err != nil {
		return malformed(err, line)
	}
	return nil
}

// malformed is the error of a reply that is not the JSON asked for: the
// decoder's error and the line, and what a UTF-8 byte order mark before
// it is (the decoder calls it "invalid character 'ï'").
func malformed(err error, line []byte) error {
	if bytes.HasPrefix(line, []byte("\xef\xbb\xbf")) {
		return fmt.Errorf("%w: the line begins with a UTF-8 byte order mark (write replies without one; Python: encoding 'utf-8', not 'utf-8-sig'): %s", ErrMalformed, quoteLine(line))
	}
	return fmt.Errorf("%w: %v: %s", ErrMalformed, err, quoteLine(line))
}

// parseReplyFast parses {"start":[ids],"timer":T,"quiet_ends":[ids]} with
// JSON whitespace anywhere, the keys in any order, any absent, each at most
// once, null for any value, and integers without exponent, fraction or leading zeros
// that fit in an int64. It returns false for anything else, which may still
// be valid (escaped keys, 1e2) or not: encoding/json then decides.
func parseReplyFast(b []byte, r *reply) bool {
	r.Start, r.Timer, r.QuietEnds = r.Start[:0], nil, r.QuietEnds[:0]
	var seenStart, seenTimer, seenQuiet bool
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return skipSpace(b, i+1) == len(b)
	}
	for {
		var key string
		switch {
		case hasPrefixAt(b, i, `"start"`):
			key, i = "start", i+7
		case hasPrefixAt(b, i, `"timer"`):
			key, i = "timer", i+7
		case hasPrefixAt(b, i, `"quiet_ends"`):
			key, i = "quiet_ends", i+12
		default:
			return false
		}
		i = skipSpace(b, i)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		null := hasPrefixAt(b, i, "null")
		switch {
		case key == "start" && !seenStart:
			seenStart = true
			var ok bool
			if r.Start, i, ok = parseIntList(b, i, r.Start); !ok {
				return false
			}
		case key == "quiet_ends" && !seenQuiet:
			seenQuiet = true
			var ok bool
			if r.QuietEnds, i, ok = parseIntList(b, i, r.QuietEnds); !ok {
				return false
			}
		case key == "timer" && !seenTimer:
			seenTimer = true
			if null {
				i += 4
				break
			}
			v, j, ok := parseInt(b, i)
			if !ok {
				return false
			}
			r.timer = v
			r.Timer = &r.timer
			i = j
		default:
			return false // a repeated key: encoding/json keeps the last
		}
		i = skipSpace(b, i)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == '}' {
			return skipSpace(b, i+1) == len(b)
		}
		return false
	}
}

// parseIntList parses null or a JSON array of integers at b[i:] (after
// spaces), appending them to list.
func parseIntList(b []byte, i int, list []int64) ([]int64, int, bool) {
	if hasPrefixAt(b, i, "null") {
		return list, i + 4, true
	}
	if i >= len(b) || b[i] != '[' {
		return list, i, false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return list, i + 1, true
	}
	for {
		v, j, ok := parseInt(b, i)
		if !ok {
			return list, i, false
		}
		list = append(list, v)
		i = skipSpace(b, j)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == ']' {
			return list, i + 1, true
		}
		return list, i, false
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

func hasPrefixAt(b []byte, i int, p string) bool {
	return len(b)-i >= len(p) && string(b[i:i+len(p)]) == p
}

// parseInt parses a JSON integer at b[i:] that fits in an int64 and is not
// followed by a fraction or an exponent.
func parseInt(b []byte, i int) (int64, int, bool) {
	neg := false
	if i < len(b) && b[i] == '-' {
		neg = true
		i++
	}
	start := i
	var v uint64
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		if i-start >= 18 { // 19+ digits may overflow: leave them to encoding/json
			return 0, i, false
		}
		v = v*10 + uint64(b[i]-'0')
		i++
	}
	n := i - start
	if n == 0 || (n > 1 && b[start] == '0') {
		return 0, i, false
	}
	if i < len(b) && (b[i] == '.' || b[i] == 'e' || b[i] == 'E') {
		return 0, i, false
	}
	if neg {
		return -int64(v), i, true
	}
	return int64(v), i, true
}

// quoteLine quotes a reply for an error message, cut to 200 bytes.
func quoteLine(line []byte) string {
	line = bytes.TrimRight(line, "\r\n")
	if len(line) > 200 {
		return fmt.Sprintf("%q... (%d bytes)", line[:200], len(line))
	}
	return fmt.Sprintf("%q", line)
}
