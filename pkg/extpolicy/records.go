package extpolicy

import (
	"strconv"

	"github.com/swfkit/swfkit/pkg/swf"
)

// Records holds what an arrival message says about each job beyond the
// engine's own values: its 18 SWF fields and its extension tokens, encoded
// once as JSON when the trace is read (about 100 bytes a job on archive
// traces), so that a round costs a copy per arrival. Add the simulated jobs
// in engine ID order (file order). The zero value is empty and ready.
type Records struct {
	// The encodings fill chunks of recordChunk bytes (a longer one gets its
	// own): one buffer grown by append would copy and fault in every byte
	// again at each growth, a third of the load time on LANL-CM5.
	chunks  [][]byte
	loc     []recordLoc
	numbers []int64 // SWF job numbers (field 1), for error messages
}

// recordLoc is where job i's encoding is: chunks[chunk][start:end].
type recordLoc struct{ chunk, start, end int32 }

const recordChunk = 1 << 20

// Add appends the record of the next simulated job. The Records keeps no
// reference to sj (the reader may reuse it).
func (r *Records) Add(sj *swf.Job) {
	fields := [swf.NumFields]int64{sj.JobNumber, sj.SubmitTime, sj.WaitTime, sj.RunTime,
		sj.AllocatedProcs, 0, sj.UsedMemory, sj.RequestedProcs, sj.RequestedTime,
		sj.RequestedMemory, sj.Status, sj.UserID, sj.GroupID, sj.Executable, sj.Queue,
		sj.Partition, sj.PrecedingJob, sj.ThinkTime}
	if len(r.chunks) == 0 || len(r.chunks[len(r.chunks)-1]) > recordChunk-1024 {
		r.chunks = append(r.chunks, make([]byte, 0, recordChunk))
	}
	c := len(r.chunks) - 1
	start := len(r.chunks[c])
	b := append(r.chunks[c], `"fields":[`...)
	for i, v := range fields {
		if i > 0 {
			b = append(b, ',')
		}
		if i+1 == swf.FieldAverageCPUTime {
			b = strconv.AppendFloat(b, sj.AverageCPUTime, 'f', -1, 64)
		} else {
			b = strconv.AppendInt(b, v, 10)
		}
	}
	b = append(b, `],"extra":[`...)
	for i, tok := range sj.Extra {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, tok)
	}
	b = append(b, ']')
	if cap(b) != cap(r.chunks[c]) && start > 0 {
		// Longer than the chunk's room (many tokens): append moved the chunk
		// to a new array; the old one stays as it was, and the record starts
		// a chunk of its own in the new one.
		r.chunks = append(r.chunks, nil)
		c, b, start = c+1, b[start:], 0
	}
	r.chunks[c] = b
	r.loc = append(r.loc, recordLoc{int32(c), int32(start), int32(len(b))})
	r.numbers = append(r.numbers, sj.JobNumber)
}

// Len returns the number of jobs added.
func (r *Records) Len() int { return len(r.loc) }

// record returns job id's encoding: "fields":[...],"extra":[...].
func (r *Records) record(id int32) []byte {
	l := r.loc[id]
	return r.chunks[l.chunk][l.start:l.end]
}

// number returns job id's SWF job number, -1 when unknown.
func (r *Records) number(id int32) int64 {
	if r == nil || id < 0 || int(id) >= len(r.numbers) {
		return -1
	}
	return r.numbers[id]
}
