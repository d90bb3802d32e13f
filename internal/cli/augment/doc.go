// Package augmentcli is the swfaugment command: flags, the fixed order of
// operations, and the header Notes. The operations are in pkg/augment.
//
// Order of operations in one run (each is optional):
//
//  1. --utility            (uses field 9 and the wait as read)
//  2. --checkpoint or --checkpoint-from
//  3. --estimate, --error-quant or --error-qual (at most one)
//  4. --load or --target-load
//
// Each operation draws from its own random stream derived from --seed, so adding
// or removing one operation does not change what another writes.
//
// The trace is streamed, never held (operations.go, spool.go): when an
// operation needs numbers of the whole trace first (the default priorities,
// the checkpoint model and answer pools, the
// bounds, the load), a first pass feeds the surveys of pkg/augment; the
// second pass sends each job through the operations. A regular file is
// opened again (and must hash the same); standard input or a pipe is copied
// to a temporary file on the first pass. The jobs go to a temporary file
// while the header's Notes, which count what the operations did, are not
// known; the header and that file follow. The errors are those of reading
// the whole trace first and running the operations one after the other.
package augmentcli
