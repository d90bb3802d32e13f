package swf

import (
	"math"
	"strconv"
)

// Field numbers (1-based, as in the SWF definition).
const (
	FieldJobNumber       = 1
	FieldSubmitTime      = 2
	FieldWaitTime        = 3
	FieldRunTime         = 4
	FieldAllocatedProcs  = 5
	FieldAverageCPUTime  = 6
	FieldUsedMemory      = 7
	FieldRequestedProcs  = 8
	FieldRequestedTime   = 9
	FieldRequestedMemory = 10
	FieldStatus          = 11
	FieldUserID          = 12
	FieldGroupID         = 13
	FieldExecutable      = 14
	FieldQueue           = 15
	FieldPartition       = 16
	FieldPrecedingJob    = 17
	FieldThinkTime       = 18
	// NumFields is the number of standard fields in a record.
	NumFields = 18
)

// FieldNames are the SWF names of fields 1..18, indexed by field number - 1.
var FieldNames = [NumFields]string{
	"Job Number", "Submit Time", "Wait Time", "Run Time",
	"Number of Allocated Processors", "Average CPU Time Used", "Used Memory",
	"Requested Number of Processors", "Requested Time", "Requested Memory",
	"Status", "User ID", "Group ID", "Executable Number", "Queue Number",
	"Partition Number", "Preceding Job Number", "Think Time from Preceding Job",
}

// Status codes of field 11.
const (
	StatusFailed    = 0
	StatusCompleted = 1
	StatusPartial   = 2 // partial execution, will continue
	StatusLastOK    = 3 // last partial execution, completed
	StatusLastFail  = 4 // last partial execution, failed
	StatusCancelled = 5
)

// Job is one SWF record. Unknown values are -1.
type Job struct {
	JobNumber       int64
	SubmitTime      int64
	WaitTime        int64
	RunTime         int64
	AllocatedProcs  int64
	AverageCPUTime  float64
	UsedMemory      int64
	RequestedProcs  int64
	RequestedTime   int64
	RequestedMemory int64
	Status          int64
	UserID          int64
	GroupID         int64
	Executable      int64
	Queue           int64
	Partition       int64
	PrecedingJob    int64
	ThinkTime       int64

	// Extra holds the tokens after field 18, verbatim, in order.
	Extra []string
	// Comments holds the raw comment and blank lines that came between the
	// previous record (or the header) and this one, in order.
	Comments []string
	// Line is the 1-based line number of the record in its input, 0 for a job
	// that was not read.
	Line int

	raw  []byte           // the line as read, without its newline
	orig [NumFields]int64 // field values as read (field 6 as its bits), to detect changes
	// origExtra is the number of Extra tokens as read; the tokens themselves are
	// compared against raw.
	origExtra int
}

// Field returns field n (1..18) as a float64. It panics on another n.
func (j *Job) Field(n int) float64 {
	switch n {
	case FieldAverageCPUTime:
		return j.AverageCPUTime
	default:
		return float64(*j.intField(n))
	}
}

// SetField sets field n (1..18). Integer fields take v truncated towards zero.
func (j *Job) SetField(n int, v float64) {
	if n == FieldAverageCPUTime {
		j.AverageCPUTime = v
		return
	}
	*j.intField(n) = int64(v)
}

// IntField returns integer field n (any but 6, Average CPU Time) exactly,
// where Field would round values beyond 2^53. It panics on another n.
func (j *Job) IntField(n int) int64 { return *j.intField(n) }

// SetIntField sets integer field n (any but 6) exactly. It panics on another n.
func (j *Job) SetIntField(n int, v int64) { *j.intField(n) = v }

func (j *Job) intField(n int) *int64 {
	switch n {
	case FieldJobNumber:
		return &j.JobNumber
	case FieldSubmitTime:
		return &j.SubmitTime
	case FieldWaitTime:
		return &j.WaitTime
	case FieldRunTime:
		return &j.RunTime
	case FieldAllocatedProcs:
		return &j.AllocatedProcs
	case FieldUsedMemory:
		return &j.UsedMemory
	case FieldRequestedProcs:
		return &j.RequestedProcs
	case FieldRequestedTime:
		return &j.RequestedTime
	case FieldRequestedMemory:
		return &j.RequestedMemory
	case FieldStatus:
		return &j.Status
	case FieldUserID:
		return &j.UserID
	case FieldGroupID:
		return &j.GroupID
	case FieldExecutable:
		return &j.Executable
	case FieldQueue:
		return &j.Queue
	case FieldPartition:
		return &j.Partition
	case FieldPrecedingJob:
		return &j.PrecedingJob
	case FieldThinkTime:
		return &j.ThinkTime
	}
	panic("swf: field number out of range")
}

// values returns the 18 values in field order, field 6 as its bits, so that
// comparing them is exact.
func (j *Job) values() [NumFields]int64 {
	return [NumFields]int64{
		j.JobNumber, j.SubmitTime, j.WaitTime,
		j.RunTime, j.AllocatedProcs, int64(math.Float64bits(j.AverageCPUTime)),
		j.UsedMemory, j.RequestedProcs, j.RequestedTime,
		j.RequestedMemory, j.Status, j.UserID,
		j.GroupID, j.Executable, j.Queue,
		j.Partition, j.PrecedingJob, j.ThinkTime,
	}
}

// setValues sets the 18 fields from v, in field order, field 6 as its bits
// (the inverse of values).
func (j *Job) setValues(v *[NumFields]int64) {
	j.JobNumber, j.SubmitTime, j.WaitTime = v[0], v[1], v[2]
	j.RunTime, j.AllocatedProcs, j.AverageCPUTime = v[3], v[4], math.Float64frombits(uint64(v[5]))
	j.UsedMemory, j.RequestedProcs, j.RequestedTime = v[6], v[7], v[8]
	j.RequestedMemory, j.Status, j.UserID = v[9], v[10], v[11]
	j.GroupID, j.Executable, j.Queue = v[12], v[13], v[14]
	j.Partition, j.PrecedingJob, j.ThinkTime = v[15], v[16], v[17]
}

// ExtraValue returns the value of the first extension token key=value.
func (j *Job) ExtraValue(key string) (string, bool) {
	for _, tok := range j.Extra {
		if len(tok) > len(key) && tok[len(key)] == '=' && tok[:len(key)] == key {
			return tok[len(key)+1:], true
		}
	}
	return "", false
}

// TokenError is the error for a malformed value of j's extension token key:
// a ParseError naming the token's field (19 for the first token) and file,
// with detail as its message.
func (j *Job) TokenError(file, key, detail string) *ParseError {
	field := NumFields + 1
	for i, tok := range j.Extra {
		if len(tok) > len(key) && tok[len(key)] == '=' && tok[:len(key)] == key {
			field += i
			break
		}
	}
	return &ParseError{File: file, Line: j.Line, Field: field, Err: ErrTokenValue, Detail: detail}
}

// SetExtra replaces the first token with this key, or appends key=value.
func (j *Job) SetExtra(key, value string) {
	tok := key + "=" + value
	for i, t := range j.Extra {
		if len(t) > len(key) && t[len(key)] == '=' && t[:len(key)] == key {
			if i < j.origExtra {
				// The backing array may be shared with the Reader: copy first.
				j.Extra = append([]string(nil), j.Extra...)
			}
			j.Extra[i] = tok
			return
		}
	}
	j.Extra = append(j.Extra[:len(j.Extra):len(j.Extra)], tok)
}

// DeleteExtra removes every token with this key.
func (j *Job) DeleteExtra(key string) {
	kept := make([]string, 0, len(j.Extra))
	for _, t := range j.Extra {
		if len(t) > len(key) && t[len(key)] == '=' && t[:len(key)] == key {
			continue
		}
		kept = append(kept, t)
	}
	if len(kept) != len(j.Extra) {
		j.Extra = kept
	}
}

// Raw returns the line the job was read from, without its newline, or nil for a
// job that was not read. Do not modify it.
func (j *Job) Raw() []byte { return j.raw }

// Changed reports whether any field or extension token differs from what was read.
// A job that was not read counts as changed.
func (j *Job) Changed() bool {
	if j.raw == nil || j.values() != j.orig || len(j.Extra) != j.origExtra {
		return true
	}
	// Compare the extension tokens with the raw line's tail.
	i := 0
	for f := 0; f < NumFields; f++ {
		_, i = nextToken(j.raw, i)
	}
	for _, tok := range j.Extra {
		var s int
		s, i = nextToken(j.raw, i)
		if string(j.raw[s:i]) != tok {
			return true
		}
	}
	return false
}

// AppendCanonical appends the canonical form of the record, without a newline:
// the 18 fields then the Extra tokens, separated by single spaces; integers in
// decimal, field 6 in the shortest decimal form that reads back to the same value.
func (j *Job) AppendCanonical(dst []byte) []byte {
	v := j.values()
	for n := range NumFields {
		if n > 0 {
			dst = append(dst, ' ')
		}
		if n == FieldAverageCPUTime-1 {
			dst = appendAverageCPUTime(dst, j.AverageCPUTime)
		} else {
			dst = strconv.AppendInt(dst, v[n], 10)
		}
	}
	for _, tok := range j.Extra {
		dst = append(dst, ' ')
		dst = append(dst, tok...)
	}
	return dst
}

// appendAverageCPUTime appends field 6 in the shortest decimal form that
// reads back to the same value. A whole number (almost every archive value,
// -1 most of all) is its integer, which is what strconv.AppendFloat(v, 'f',
// -1, 64) writes for it, without the float formatting; -0 keeps its sign.
func appendAverageCPUTime(dst []byte, v float64) []byte {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 && (v != 0 || !math.Signbit(v)) {
		return strconv.AppendInt(dst, int64(v), 10)
	}
	return strconv.AppendFloat(dst, v, 'f', -1, 64)
}

// ForgetRaw makes the job count as changed, so it is written in canonical form.
func (j *Job) ForgetRaw() { j.raw = nil }
