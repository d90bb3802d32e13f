package augment

import "math/rand/v2"

// Stream identifies the random stream of one operation.
type Stream uint64

// The streams of the operations. Their values are part of the output's
// reproducibility: changing one changes every augmented trace made with it.
const (
	StreamUtility    Stream = 1
	StreamCheckpoint Stream = 2
	StreamEstimate   Stream = 3
)

// NewRand returns the generator of one operation's stream for a seed: a PCG
// (math/rand/v2) seeded with (seed, stream). The same seed and stream always
// give the same sequence.
func NewRand(seed uint64, s Stream) *rand.Rand {
	return rand.New(rand.NewPCG(seed, uint64(s)))
}
