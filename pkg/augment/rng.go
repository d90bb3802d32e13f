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

// Draws counts the numbers drawn from the generators it makes, so that a
// run can tell whether its seed changed anything.
type Draws struct{ n int64 }

// NewRand is NewRand, counting into d: the same sequence.
func (d *Draws) NewRand(seed uint64, s Stream) *rand.Rand {
	return rand.New(countingSource{rand.NewPCG(seed, uint64(s)), d})
}

// Count is the number of 64-bit values drawn so far.
func (d *Draws) Count() int64 { return d.n }

type countingSource struct {
	src rand.Source
	d   *Draws
}

func (c countingSource) Uint64() uint64 {
	c.d.n++
	return c.src.Uint64()
}
