package cmdio

import "testing"

func TestCounted(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{{0, "0 lines"}, {1, "1 line"}, {2, "2 lines"}, {-1, "-1 lines"}} {
		if got := Counted(c.n, "line", "lines"); got != c.want {
			t.Errorf("Counted(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	if got := Counted(1, "job names", "jobs name"); got != "1 job names" {
		t.Errorf("Counted(1) of an int = %q", got)
	}
}
