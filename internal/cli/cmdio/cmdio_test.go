package cmdio

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"

	"github.com/urfave/cli/v2"
)

func TestInterspersed(t *testing.T) {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "policy", Aliases: []string{"p"}},
		&cli.StringFlag{Name: "o"},
		&cli.BoolFlag{Name: "no-kill"},
	}
	tests := []struct{ in, want string }{
		{"swfsim --policy easy a.swf", "swfsim --policy easy -- a.swf"},
		{"swfsim a.swf --policy easy -o out.swf", "swfsim --policy easy -o out.swf -- a.swf"},
		{"swfsim a.swf --no-kill b.swf", "swfsim --no-kill -- a.swf b.swf"},
		{"swfsim --policy=easy - ", "swfsim --policy=easy -- -"},
		{"swfsim -p easy -- --odd-name.swf", "swfsim -p easy -- --odd-name.swf"},
		{"swfsim --unknown a.swf", "swfsim --unknown -- a.swf"},
		{"swfsim", "swfsim"},
	}
	for _, tt := range tests {
		got := strings.Join(Interspersed(strings.Fields(tt.in), flags), " ")
		if got != tt.want {
			t.Errorf("%q -> %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestExitCode(t *testing.T) {
	tests := []struct {
		err  error
		want int
	}{
		{nil, 0},
		{fmt.Errorf("write: %w", syscall.EPIPE), 0},
		{Usagef("bad %s", "flag"), 2},
		{fmt.Errorf("wrapped: %w", Usagef("x")), 2},
		{errors.New("t.swf:3: field 4"), 1},
	}
	for _, tt := range tests {
		if got := ExitCode(tt.err); got != tt.want {
			t.Errorf("ExitCode(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
}
