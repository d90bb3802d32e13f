package swf

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseQueueOrder parses a priority order of queues (SWF field 15): queue
// numbers separated by commas, highest priority first, '+' joining queues of
// equal priority, as in "0,1+12,2". swfaugment's and swfsim's
// --priority-order both take it, so that one value serves a study's two
// tools. A queue listed twice is an error.
func ParseQueueOrder(s string) ([][]int64, error) {
	var out [][]int64
	seen := map[int64]bool{}
	for _, group := range strings.Split(s, ",") {
		var g []int64
		for _, f := range strings.Split(group, "+") {
			f = strings.TrimSpace(f)
			q, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("priority order %q: %q is not a queue number", s, f)
			}
			if seen[q] {
				return nil, fmt.Errorf("priority order %q: queue %d listed twice", s, q)
			}
			seen[q] = true
			g = append(g, q)
		}
		out = append(out, g)
	}
	return out, nil
}

// FormatQueueOrder writes order back in ParseQueueOrder's syntax.
func FormatQueueOrder(order [][]int64) string {
	groups := make([]string, len(order))
	for i, g := range order {
		qs := make([]string, len(g))
		for k, q := range g {
			qs[k] = strconv.FormatInt(q, 10)
		}
		groups[i] = strings.Join(qs, "+")
	}
	return strings.Join(groups, ",")
}
