package stats

import (
	"fmt"
	"strconv"
)

// Key is a breakdown dimension (--by).
type Key int

const (
	// ByCategory splits jobs into SN, SW, LN, LW: short (runtime, all runs of
	// a bumped job (runtotal=), <=
	// Config.ShortRuntime) or long, narrow (requested processors <=
	// Config.NarrowProcs) or wide (Srinivasan et al., Tables 1-2).
	ByCategory Key = iota + 1
	// ByStatus splits by field 11.
	ByStatus
	// ByShort splits into "short" (runtime <= Config.TrialRuntime) and "long",
	// as Thebe et al. count jobs that end within their trial run.
	ByShort
	// ByUser splits by field 12.
	ByUser
	// ByQueue splits by field 15.
	ByQueue
)

var keyNames = map[Key]string{ByCategory: "category", ByStatus: "status", ByShort: "short", ByUser: "user", ByQueue: "queue"}

// KeyNames lists the valid breakdown names in documentation order.
var KeyNames = []string{"category", "status", "short", "user", "queue"}

// ParseKey reads a breakdown name.
func ParseKey(s string) (Key, error) {
	for k, name := range keyNames {
		if name == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown breakdown %q (want one of category, status, short, user, queue)", s)
}

func (k Key) String() string { return keyNames[k] }

// Unknown is the group of jobs whose key field is unknown.
const Unknown = "unknown"

// categoryOrder fixes the output order of category groups.
var categoryOrder = map[string]int{"SN": 0, "SW": 1, "LN": 2, "LW": 3, "short": 0, "long": 1}

// groupOf returns the group name of a record under key k.
func (c Config) groupOf(k Key, r *record) string {
	switch k {
	case ByCategory:
		// A job's length is all its runs (busy: runtotal= of a job ga-ckpt
		// bumped, else field 4), as in its slowdowns: its last run alone
		// would make a 12-hour job whose last piece took 15 minutes short,
		// and put one job in different categories under different policies.
		// A runtotal= beside an unknown field 4 is no length: the job is
		// unknown, as the exclusions count it (runtime unknown).
		if !r.runKnown() || r.width < 1 {
			return Unknown
		}
		length, width := "S", "N"
		if r.busy > c.shortRuntime() {
			length = "L"
		}
		if r.width > c.narrowProcs() {
			width = "W"
		}
		return length + width
	case ByShort:
		if !r.runKnown() { // then all its runs, as for the category
			return Unknown
		}
		if r.busy <= c.trialRuntime() {
			return "short"
		}
		return "long"
	case ByStatus:
		return idGroup(r.status)
	case ByUser:
		return idGroup(r.user)
	case ByQueue:
		return idGroup(r.queue)
	}
	panic("stats: bad key")
}

func idGroup(v int64) string {
	if v < 0 {
		return Unknown
	}
	return strconv.FormatInt(v, 10)
}

// groupLess orders group names: category and short/long names in their
// fixed order, then numeric ids numerically, then unknown.
func groupLess(a, b string) bool {
	ca, na := groupRank(a)
	cb, nb := groupRank(b)
	if ca != cb {
		return ca < cb
	}
	if na != nb {
		return na < nb
	}
	return a < b
}

func groupRank(g string) (class int, n int64) {
	if g == Unknown {
		return 3, 0
	}
	if o, ok := categoryOrder[g]; ok {
		return 0, int64(o)
	}
	if v, err := strconv.ParseInt(g, 10, 64); err == nil {
		return 1, v
	}
	return 2, 0
}
