package main

import (
	"fmt"
	"strings"
	"testing"
)

const roundLine = `{"type":"round","round":1,"time":20,"free":2,"waiting":3,"running":1,"timer":-1,"arrived":[{"id":1,"submit":10,"procs":4,"estimate":60,"fields":[2,10,-1,50,4,-1,-1,4,60,-1,1,2,1,-1,1,-1,-1,-1],"extra":["u=0:10,100:5"]},{"id":2,"submit":20,"procs":1,"estimate":30,"fields":[3,20,-1,40,1,0.5,-1,1,30,-1,1,1,1,-1,1,-1,-1,-1],"extra":["a]\"}b"]}],"started":[{"id":0,"time":0}],"ended":[{"id":5,"time":7}],"killed":[]}` + "\n"

func summary(m *message) string {
	return fmt.Sprintf("%s t=%d free=%d arrived=%v started=%v ended=%v killed=%v", m.kind, m.time, m.free, m.arrived, m.started, m.ended, m.killed)
}

func TestParse(t *testing.T) {
	const want = "round t=20 free=2 arrived=[{1 4 60} {2 1 30}] started=[{0 0}] ended=[{5 7}] killed=[]"
	var m message
	if err := m.parse([]byte(roundLine)); err != nil || summary(&m) != want {
		t.Fatalf("%s, %v; want %s", summary(&m), err, want)
	}
	// Any JSON spacing and key order reads the same.
	spaced := strings.NewReplacer(",", " ,\t", ":", " : ", "{", "{ ", "]", " ]").Replace(roundLine)
	var n message
	if err := n.parse([]byte(spaced)); err != nil || summary(&n) != want {
		t.Fatalf("spaced: %s, %v", summary(&n), err)
	}
	var h message
	if err := h.parse([]byte(`{"header":[{"label":"x","value":"{\"]"}],"supports":["start","start_head"],"jobs":4,"no_kill":false,"protocol":1,"type":"hello"}`)); err != nil ||
		string(h.kind) != "hello" || h.jobs != 4 || h.protocol != 1 || len(h.supports) != 2 {
		t.Fatalf("hello: %+v, %v", h, err)
	}
	for _, bad := range []string{``, `{`, `{"type":"round"`, `{"type":"round"} x`, `{"time":1}`, `{"type":"round","arrived":[{"id":x}]}`, `{"type":"round","arrived":[{"fields":[1,2}]}`} {
		var b message
		if err := b.parse([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// A round costs no allocation once the message's slices have grown.
func TestParseAllocs(t *testing.T) {
	var m message
	line := []byte(roundLine)
	if n := testing.AllocsPerRun(100, func() { m.parse(line) }); n != 0 {
		t.Errorf("%v allocations per message", n)
	}
}
