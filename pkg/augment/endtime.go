package augment

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/swfkit/swfkit/pkg/swf"
)

// ScaleEndTime keeps the header's EndTime true after ScaleLoad changed the
// submit times as rep says: the end's time since the first submit is divided
// by the factor like a submit time's, and the date rewritten in the log's
// time zone, its day of the month padded as the input's EndTime, else its
// StartTime, pads a day below 10 (swf.DateLayoutOf; with a zero when neither
// shows it, swf.DateLayout). StartTime and UnixStartTime need nothing: the
// first submit time is kept.
//
// That needs the end as an instant: UnixStartTime relates dates to submit
// times, and EndTime's zone abbreviation must be the one the header's
// TimeZoneString (an IANA zone, which the caller's binary must be able to
// load) uses at that date. When any is missing or does not fit, EndTime is
// left and the Note says that it describes the unscaled log. The Note
// returned is "" when the header has no EndTime.
func ScaleEndTime(h *swf.Header, rep *LoadReport) string {
	end, ok := h.Get("EndTime")
	if !ok {
		return ""
	}
	end = strings.TrimSpace(end)
	if rep.Empty {
		return fmt.Sprintf("swfaugment load: EndTime left as in the input (%s): no job has a known submit time, so none was scaled", end)
	}
	scaled, err := scaledEnd(h, end, rep)
	if err != nil {
		return fmt.Sprintf("swfaugment load: EndTime left as in the input (%s), so it describes the unscaled log, not the scaled submit times: %v", end, err)
	}
	h.Set("EndTime", scaled)
	return fmt.Sprintf("swfaugment load: EndTime rewritten for the scaled submit times, its time since the first submit divided by F (input header: %s)", end)
}

// scaledEnd returns the date of EndTime mapped like a submit time.
func scaledEnd(h *swf.Header, end string, rep *LoadReport) (string, error) {
	start, ok, err := h.UnixStartTime()
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fmt.Errorf("the header has no UnixStartTime to relate it to the submit times")
	}
	zone, ok := h.Get("TimeZoneString")
	if !ok {
		return "", fmt.Errorf("the header has no TimeZoneString to read its zone in")
	}
	loc, err := swf.LoadZone(zone)
	if err != nil {
		return "", err
	}
	t, exact, err := swf.ParseDate(end, loc)
	if err != nil {
		return "", fmt.Errorf("it is not a date as date(1) writes it (%v)", err)
	}
	if !exact {
		return "", fmt.Errorf("its zone is not the one TimeZoneString %s uses at that date", loc)
	}
	// The same map as the submit times: origin + round((s - origin) / F).
	since := float64(t.Unix()-start) - float64(rep.Origin)
	scaled := float64(rep.Origin) + math.Round(since/rep.Factor)
	if math.Abs(scaled) > swf.MaxTime {
		return "", fmt.Errorf("scaled, it would be %.4g s from UnixStartTime, beyond swfkit's time bound %d s", scaled, int64(swf.MaxTime))
	}
	return time.Unix(start+int64(scaled), 0).In(loc).Format(dateLayout(h, end)), nil
}

// dateLayout is the layout of the header's dates as its EndTime, else its
// StartTime, shows it; swf.DateLayout when neither has a day below 10.
func dateLayout(h *swf.Header, end string) string {
	if layout, ok := swf.DateLayoutOf(end); ok {
		return layout
	}
	if start, had := h.Get("StartTime"); had {
		if layout, ok := swf.DateLayoutOf(start); ok {
			return layout
		}
	}
	return swf.DateLayout
}
