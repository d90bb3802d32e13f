package clean

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/swfkit/swfkit/pkg/swf"
)

// NumericLabels are the header labels the SWF definition gives an integer
// value, read as swf.Header.Int does (the leading integer).
var NumericLabels = []string{"MaxJobs", "MaxRecords", "UnixStartTime", "MaxNodes", "MaxProcs",
	"MaxRuntime", "MaxMemory", "MaxQueues", "MaxPartitions"}

// PreemptionValues are the values the format defines for Preemption.
var PreemptionValues = []string{"No", "Yes", "Double", "TS"}

// versionNumber is what the format's Version holds: 2, 2.1, 2.2 (other
// numbers occur in real logs, so any dotted number passes).
var versionNumber = regexp.MustCompile(`^[0-9]+(\.[0-9]+)*$`)

// CheckHeaderValue reports whether value is one the format allows for label
// (any case), as swfclean --set accepts it and --check reads it (a value it
// refuses is header_malformed there): numeric labels a whole number within
// 64 bits of at least 0 (at least 1 for the machine size, MaxProcs and
// MaxNodes); Version a number (2, 2.1, 2.2); Preemption one of
// PreemptionValues; StartTime and EndTime date(1) text ("Mon Sep 23
// 14:00:31 CEST 1996"); TimeZoneString an IANA zone (swf.LoadZone);
// TimeZone an offset in seconds within a day (swf.Header.TimeZoneOffset).
// Other labels take any text. The error says what the label takes.
func CheckHeaderValue(label, value string) error {
	value = strings.TrimSpace(value)
	for _, l := range NumericLabels {
		if strings.EqualFold(l, label) {
			return checkNumeric(l, value)
		}
	}
	switch strings.ToLower(label) {
	case "version":
		if !versionNumber.MatchString(value) {
			return fmt.Errorf("%s takes the SWF version, a number such as 2.2 (2, 2.1, 2.2), got %q", canonicalLabel(label), value)
		}
	case "preemption":
		for _, p := range PreemptionValues {
			if strings.EqualFold(p, value) {
				return nil
			}
		}
		return fmt.Errorf("%s takes one of %s, got %q", canonicalLabel(label), strings.Join(PreemptionValues, ", "), value)
	case "starttime", "endtime":
		if _, _, err := swf.ParseDate(value, time.UTC); err != nil {
			return fmt.Errorf("%s takes a date as date(1) writes it, such as %q, got %q",
				canonicalLabel(label), "Mon Sep 23 14:00:31 CEST 1996", value)
		}
	case "timezonestring":
		if _, err := swf.LoadZone(value); err != nil {
			return err
		}
	case "timezone":
		h := swf.Header{Lines: []swf.HeaderLine{{Label: "TimeZone", Value: value}}}
		if _, _, err := h.TimeZoneOffset(); err != nil {
			var pe *swf.ParseError
			if errors.As(err, &pe) {
				err = errors.New(strings.TrimPrefix(pe.Detail, "header label "))
			}
			return err
		}
	}
	return nil
}

// checkNumeric reads value as the tools read the label and wants it at
// least 0, or at least 1 for a machine size: one message for every value
// below the least (MaxProcs -5 and MaxProcs 0 alike).
func checkNumeric(label, value string) error {
	h := swf.Header{Lines: []swf.HeaderLine{{Label: label, Value: value}}}
	v, _, err := h.Int(label)
	if err != nil {
		return fmt.Errorf("%s takes a whole number within 64 bits, its digits not split by blanks or commas, got %q", label, value)
	}
	if label == "MaxProcs" || label == "MaxNodes" {
		if v < 1 {
			return fmt.Errorf("%s is the machine size, a whole number of at least 1, got %d", label, v)
		}
		return nil
	}
	if v < 0 {
		return fmt.Errorf("%s takes a whole number of at least 0, got %d", label, v)
	}
	return nil
}

// canonicalLabel spells a label the format defines as the format does.
func canonicalLabel(label string) string {
	for _, l := range []string{"StartTime", "EndTime", "Version", "Preemption"} {
		if strings.EqualFold(l, label) {
			return l
		}
	}
	return label
}
