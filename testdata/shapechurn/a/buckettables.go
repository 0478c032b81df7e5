package a

import (
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

// A size found in a table the loop does not change (a server's bucket
// list, searched for the first that holds the request) is one of the
// table's entries, however many requests come: compiles are bounded by the
// table. A loop that walks the table takes a new entry on every trip.

type btServer struct {
	buckets []int
	score   *jit.Func[func(jit.Array) jit.Array]
}

func (s *btServer) bucket(n int) int {
	size := s.buckets[len(s.buckets)-1]
	for _, b := range s.buckets {
		if n <= b {
			size = b
			break
		}
	}
	return size
}

func (s *btServer) serve(requests <-chan []float32) {
	for req := range requests {
		s.score.Call(jit.Zeros(jit.Float32, s.bucket(len(req)), 4))                 // not reported: one of the configured buckets
		s.score.Call(jit.Zeros(jit.Float32, s.buckets[len(req)%len(s.buckets)], 4)) // not reported: an entry the data pick
		s.score.Call(jit.Zeros(jit.Float32, len(req), 4))                           // want `has a different shape on each iteration`
	}
	for i := range s.buckets {
		s.score.Call(jit.Zeros(jit.Float32, s.buckets[i], 4)) // want `has a different shape on each iteration`
	}
}

// btPad pads to the first size of a literal list that holds n, else the
// last: one of three sizes.
func btPad(n int) int {
	for _, b := range []int{16, 32, 48} {
		if n <= b {
			return b
		}
	}
	return 48
}

func btTrain(rng *rand.Rand, score *jit.Func[func(jit.Array) jit.Array]) {
	for i := 0; i < 40; i++ {
		ep := make([]float32, 1+rng.Intn(48))                 // as long as the data make it
		score.Call(jit.Zeros(jit.Float32, btPad(len(ep)), 4)) // not reported: one of three sizes
		score.Call(jit.Zeros(jit.Float32, len(ep), 4))        // want `has a different shape on each iteration`
	}
}
