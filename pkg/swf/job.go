package swf

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

	raw  []byte      // the line as read, without its newline
	orig [18]float64 // field values as read, to detect changes
	// origExtra is the number of Extra tokens as read; the tokens themselves are
	// compared against raw.
	origExtra int
}
