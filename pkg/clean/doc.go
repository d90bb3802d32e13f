// Package clean checks SWF traces for anomalies and cleans them with named,
// counted rules, following the conventions of the Parallel Workloads Archive.
//
// Checking: a Checker runs every check of Anomalies over a stream of records
// (named after the archive converter's checks, plus header consistency checks)
// and returns a CheckResult with each fired check's count and first few line
// numbers. Its memory is constant except for one bit per job number.
//
// Cleaning: a Cleaner applies filters (Filter, the archive's own expression
// syntax) and then the selected Rules, in registry order. Rules marked
// WholeTrace (flurries, merge_partial, sort_submit, shift_time) need every record
// first, so selecting one makes the caller hold the trace (ApplyAll); otherwise
// records stream through Apply with constant memory, except for the maps of
// renumber and anonymize (see Rule.Memory), a bit per job number written and
// per job number dropped, and a count per preceding job (field 17) that no
// record written before named (most traces have none). Every record read is
// either written or dropped by exactly one step; Report returns the counts and
// Annotate writes them into the header as Note lines, with refreshed MaxJobs
// and MaxRecords.
//
// Conventions: -1 is unknown in every field; a rule that changes a record
// modifies the swf.Job in place (so swf.Writer writes it in canonical form) and
// never changes a record it has nothing to say about, so unchanged records are
// written back byte-identical. Library code neither prints nor exits.
package clean
