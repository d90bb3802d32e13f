package sim

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// Why the profile is an array and not a tree (docs/swfsim.md, round 6): a
// segment tree with range minima and lazy adds checks a window and takes its
// processors in O(log S), the array in O(window). At the profile's size on
// whole RICC (about 1,300 steps) and the windows conservative's rebuilds
// check (54 steps on average, its moves walk about 6), the array wins even
// before the tree pays for inserting steps, which it would also have to do:
//
//	GOMAXPROCS=1 go test -run XXX -bench 'WindowOp' ./pkg/sim

// iterTree is the prototype: a segment tree over fixed positions with range
// adds and range minima, walked bottom-up without recursion (pending adds
// pushed down on the two boundary paths), the fast form of the recursive
// tree pkg/schedcheck's oracle uses.
type iterTree struct {
	n, h int
	t, d []int64
}

func newIterTree(vals []int64) *iterTree {
	n := len(vals)
	it := &iterTree{n: n, t: make([]int64, 2*n), d: make([]int64, n)}
	for it.h = 1; 1<<it.h <= n; it.h++ {
	}
	copy(it.t[n:], vals)
	for i := n - 1; i > 0; i-- {
		it.t[i] = min(it.t[2*i], it.t[2*i+1])
	}
	return it
}

func (it *iterTree) apply(p int, v int64) {
	it.t[p] += v
	if p < it.n {
		it.d[p] += v
	}
}

func (it *iterTree) build(p int) {
	for p > 1 {
		p >>= 1
		it.t[p] = min(it.t[2*p], it.t[2*p+1]) + it.d[p]
	}
}

func (it *iterTree) push(p int) {
	for s := it.h; s > 0; s-- {
		if i := p >> s; i > 0 && it.d[i] != 0 {
			it.apply(2*i, it.d[i])
			it.apply(2*i+1, it.d[i])
			it.d[i] = 0
		}
	}
}

func (it *iterTree) query(l, r int) int64 {
	l, r = l+it.n, r+it.n
	it.push(l)
	it.push(r - 1)
	res := int64(1 << 62)
	for ; l < r; l, r = l>>1, r>>1 {
		if l&1 == 1 {
			res = min(res, it.t[l])
			l++
		}
		if r&1 == 1 {
			r--
			res = min(res, it.t[r])
		}
	}
	return res
}

func (it *iterTree) add(l, r int, v int64) {
	l, r = l+it.n, r+it.n
	l0, r0 := l, r
	for ; l < r; l, r = l>>1, r>>1 {
		if l&1 == 1 {
			it.apply(l, v)
			l++
		}
		if r&1 == 1 {
			r--
			it.apply(r, v)
		}
	}
	it.build(l0)
	it.build(r0 - 1)
}

func (it *iterTree) take(i, w int, p, q int64) bool {
	if it.query(i, i+w) < p {
		return false
	}
	it.add(i, i+w, -q)
	return true
}

func arrayTake(free []int64, i, w int, p, q int64) bool {
	win := free[i : i+w]
	for _, f := range win {
		if f < p {
			return false
		}
	}
	for k := range win {
		win[k] -= q
	}
	return true
}

type windowOp struct {
	i, w int
	p, q int64
}

func windowOps(n, w, count int) []windowOp {
	r := rand.New(rand.NewPCG(1, 2))
	ops := make([]windowOp, count)
	for k := range ops {
		ops[k] = windowOp{r.IntN(n - w + 1), w, r.Int64N(40), r.Int64N(3) - 1}
	}
	return ops
}

// The prototype is right: the same answers and free counts as the array.
func TestTreeAgreesWithArray(t *testing.T) {
	const n = 300
	free := make([]int64, n)
	for i := range free {
		free[i] = 20
	}
	tree := newIterTree(free)
	for _, op := range windowOps(n, 17, 20000) {
		if a, b := arrayTake(free, op.i, op.w, op.p, op.q), tree.take(op.i, op.w, op.p, op.q); a != b {
			t.Fatalf("%+v: array %v, tree %v", op, a, b)
		}
	}
	for i, f := range free {
		if got := tree.query(i, i+1); got != f {
			t.Fatalf("step %d: tree %d, array %d", i, got, f)
		}
	}
}

func benchmarkWindowOp(b *testing.B, w int, kind string) {
	const n = 1300
	free := make([]int64, n)
	for i := range free {
		free[i] = 1 << 20
	}
	tree := newIterTree(free)
	ops := windowOps(n, w, 4096)
	b.ResetTimer()
	for k := 0; k < b.N; k++ {
		op := ops[k%len(ops)]
		if kind == "tree" {
			tree.take(op.i, op.w, op.p, op.q)
		} else {
			arrayTake(free, op.i, op.w, op.p, op.q)
		}
	}
}

func BenchmarkWindowOp(b *testing.B) {
	for _, w := range []int{6, 54, 240} {
		for _, kind := range []string{"array", "tree"} {
			b.Run(kind+"/"+strconv.Itoa(w), func(b *testing.B) { benchmarkWindowOp(b, w, kind) })
		}
	}
}
