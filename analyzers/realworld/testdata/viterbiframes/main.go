// Command viterbiframes decodes per-frame phone scores: greedy CTC (best
// label per frame, then collapse repeats and blanks) and a Viterbi pass
// over a small left-to-right HMM, written both as a host loop over frames
// and as a scan. Decoders are looked up by name from a table.
package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/jitlint/jitlint/jit"
)

const (
	frames = 40
	states = 5
	blank  = 0
	chunk  = 32
)

// frameLog records the frames the decoder has touched.
var frameLog []string

// argmax over the last axis of a [n, k] matrix, as int32 [n].
func argmax(x jit.Array) jit.Array {
	n, k := x.Shape()[0], x.Shape()[1]
	best := x.MaxReduce(1).Reshape(n, 1)
	idx := jit.Arange(k, jit.Int32).Reshape(1, k)
	return jit.Where(x.Eq(best), idx, k).MinReduce(1)
}

// Greedy returns the best label per frame (trans is unused).
func Greedy(emis, trans jit.Array) jit.Array {
	jit.DebugPrint("greedy over %v frames", emis.Shape()[0])
	return argmax(emis).Astype(jit.Float32)
}

// ViterbiLoop is the textbook recursion, one Go iteration per frame.
func ViterbiLoop(emis, trans jit.Array) jit.Array {
	t := emis.Shape()[0]
	delta := emis.Slice([]int{0, 0}, []int{1, states}).Reshape(states)
	for i := 1; i < t; i++ { // want unrolledloop
		cand := delta.Reshape(states, 1).Add(trans)
		delta = cand.MaxReduce(0).Add(emis.Slice([]int{i, 0}, []int{i + 1, states}).Reshape(states))
	}
	return delta
}

// ViterbiScan is the same recursion as one scan over the frames.
func ViterbiScan(emis, trans jit.Array) jit.Array {
	init := emis.Slice([]int{0, 0}, []int{1, states}).Reshape(states)
	rest := emis.Slice([]int{1, 0}, []int{emis.Shape()[0], states})
	final, _ := jit.Scan(func(delta, e jit.Array) (jit.Array, jit.Array) {
		next := delta.Reshape(states, 1).Add(trans).MaxReduce(0).Add(e)
		return next, next.MaxReduce()
	}, init, rest)
	return final
}

// ViterbiChunk decodes one fixed chunk of frames with a host loop.
func ViterbiChunk(emis, trans jit.Array) jit.Array {
	delta := jit.Zeros(jit.Float32, states)
	var trail []jit.Array
	for i := 0; i < chunk; i++ {
		cand := delta.Reshape(states, 1).Add(trans)
		delta = cand.MaxReduce(0).Add(emis.Slice([]int{i, 0}, []int{i + 1, states}).Reshape(states))
		trail = append(trail, delta.MaxReduce().Reshape(1))
	}
	return delta.Add(jit.Concatenate(0, trail...).Mean())
}

// LoggedGreedy is Greedy with bookkeeping of the frames it saw.
func LoggedGreedy(emis jit.Array) jit.Array {
	frameLog = append(frameLog, fmt.Sprintf("frames=%d", emis.Shape()[0])) // want traceeffect
	return argmax(emis).Astype(jit.Float32)
}

// CollapseOnDevice tries to collapse repeats while tracing.
func CollapseOnDevice(labels jit.Array) jit.Array {
	prev := -1
	var keep []jit.Array
	for i := 0; i < 8; i++ {
		l := labels.Slice([]int{i}, []int{i + 1})
		v := l.Int() // want tracedbool
		if v != prev && v != blank {
			keep = append(keep, l)
		}
		prev = v
	}
	return jit.Concatenate(0, keep...)
}

// collapse is CTC's rule on host labels.
func collapse(labels []int32) []int32 {
	var out []int32
	prev := int32(-1)
	for _, l := range labels {
		if l != prev && l != blank {
			out = append(out, l)
		}
		prev = l
	}
	return out
}

func emissions(n int) jit.Array {
	// Pseudo-acoustic scores: a smooth drift between states plus ripple.
	t := jit.Arange(n, jit.Float32).Reshape(n, 1)
	s := jit.Arange(states, jit.Float32).Reshape(1, states)
	center := t.Mul(float64(states) / float64(n))
	return center.Sub(s).Abs().Neg().Add(t.Mul(s).Mul(0.7).Sin().Mul(0.3))
}

func transitions() jit.Array {
	tr := make([]float32, states*states)
	for i := range states {
		for j := range states {
			switch {
			case j == i:
				tr[i*states+j] = -0.1
			case j == i+1:
				tr[i*states+j] = -1.2
			default:
				tr[i*states+j] = -8
			}
		}
	}
	return jit.FromSlice(tr, states, states)
}

func main() {
	emis := emissions(frames)
	trans := transitions()

	decoders := map[string]*jit.Func[func(jit.Array, jit.Array) jit.Array]{
		"greedy":       jit.Jit(Greedy),
		"viterbi-loop": jit.Jit(ViterbiLoop),
		"viterbi-scan": jit.Jit(ViterbiScan),
	}
	names := make([]string, 0, len(decoders))
	for n := range decoders {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		out := decoders[name].Call(emis, trans)
		if name == "greedy" {
			labels := out.Int32s()
			fmt.Printf("%-13s labels=%v collapsed=%v\n", name, labels[:12], collapse(labels))
			continue
		}
		fmt.Printf("%-13s best final score %.4f\n", name, out.MaxReduce().Item())
	}

	// Streaming: fixed chunks of 32 frames, one compile for all chunks.
	chunked := jit.Jit(ViterbiChunk)
	long := emissions(4 * chunk)
	for c := 0; c < 4; c++ {
		part := long.Slice([]int{c * chunk, 0}, []int{(c + 1) * chunk, states})
		fmt.Printf("chunk %d: %.4f\n", c, chunked.Call(part, trans).MaxReduce().Item())
	}

	logged := jit.Jit(LoggedGreedy)
	for i := 0; i < 3; i++ {
		out := logged.Call(emis)
		frameLog = append(frameLog, fmt.Sprintf("call %d -> %d labels", i, out.Size()))
	}
	fmt.Println("log:", strings.Join(frameLog, "; "))

	onDevice := jit.Jit(CollapseOnDevice)
	func() {
		defer func() {
			if r := recover(); r != nil {
				fmt.Println("device collapse failed:", strings.SplitN(fmt.Sprint(r), "\n", 2)[0])
			}
		}()
		onDevice.Call(decoders["greedy"].Call(emis, trans).Astype(jit.Int32))
	}()
}
