package cmdio

import (
	"fmt"
	"strings"

	"github.com/swfkit/swfkit/pkg/swf"
)

// KillWarn is --kill-warn, which swfsim and swfstat share so that one flag
// of a pipeline means one thing: warn when more than Share of the jobs were
// (or would be) killed at their requested time. Share 0 warns at any kill;
// Off never warns. The zero value warns at any kill.
type KillWarn struct {
	Share float64 // 0..1
	Off   bool
}

// KillWarnDefault is both tools' default, 5% of the jobs.
const KillWarnDefault = "0.05"

// ParseKillWarn reads a --kill-warn value: a share of the jobs from 0 to 1
// ("0.05"), a percentage ("5%"), or "off".
func ParseKillWarn(s string) (KillWarn, error) {
	if s == "off" {
		return KillWarn{Off: true}, nil
	}
	num, percent := strings.CutSuffix(s, "%")
	v, err := swf.ParseDecimal(num)
	if percent {
		v /= 100
	}
	if err != nil || !(v >= 0 && v <= 1) {
		return KillWarn{}, fmt.Errorf("want a share of jobs from 0 to 1 (0.05), a percentage (5%%), or off")
	}
	return KillWarn{Share: v}, nil
}

// Warns reports whether share, the jobs killed over all jobs, is above the
// threshold.
func (k KillWarn) Warns(share float64) bool { return !k.Off && share > k.Share }
