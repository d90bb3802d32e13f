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
	buf     []byte
	end     []int   // end of job i's encoding in buf
	numbers []int64 // SWF job numbers (field 1), for error messages
}

// Add appends the record of the next simulated job. The Records keeps no
// reference to sj (the reader may reuse it).
func (r *Records) Add(sj *swf.Job) {
	fields := [swf.NumFields]int64{sj.JobNumber, sj.SubmitTime, sj.WaitTime, sj.RunTime,
		sj.AllocatedProcs, 0, sj.UsedMemory, sj.RequestedProcs, sj.RequestedTime,
		sj.RequestedMemory, sj.Status, sj.UserID, sj.GroupID, sj.Executable, sj.Queue,
		sj.Partition, sj.PrecedingJob, sj.ThinkTime}
	b := append(r.buf, `"fields":[`...)
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
	r.buf = b
	r.end = append(r.end, len(b))
	r.numbers = append(r.numbers, sj.JobNumber)
}

// Len returns the number of jobs added.
func (r *Records) Len() int { return len(r.end) }

// record returns job id's encoding: "fields":[...],"extra":[...].
func (r *Records) record(id int32) []byte {
	start := 0
	if id > 0 {
		start = r.end[id-1]
	}
	return r.buf[start:r.end[id]]
}

// number returns job id's SWF job number, -1 when unknown.
func (r *Records) number(id int32) int64 {
	if r == nil || id < 0 || int(id) >= len(r.numbers) {
		return -1
	}
	return r.numbers[id]
}
