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
package augmentcli
