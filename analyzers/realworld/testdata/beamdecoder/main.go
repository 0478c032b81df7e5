// Command beam_decoder runs greedy/beam decoding with a toy bigram-plus-
// attention "language model", once with a token history that grows every
// step and once with a fixed-size buffer.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

const (
	vocab  = 12
	beams  = 3
	maxLen = 12
	dModel = 6
)

// DecodeStep scores the next token from the whole history [beams, t].
func DecodeStep(emb, out, history jit.Array) jit.Array {
	fmt.Printf("DecodeStep: history length %d\n", history.Shape()[1]) // want traceeffect
	t := history.Shape()[1]
	oh := history.Reshape(beams*t, 1).Eq(jit.Arange(vocab, jit.Int32).Reshape(1, vocab)).Astype(jit.Float32)
	h := oh.MatMul(emb).Reshape(beams, t, dModel).Mean(1) // [beams, dModel]
	return h.MatMul(out)                                  // [beams, vocab]
}

// DecodeStepBuf reads a fixed [beams, maxLen] buffer and a traced length.
func DecodeStepBuf(emb, out, buf, length jit.Array) jit.Array {
	oh := buf.Reshape(beams*maxLen, 1).Eq(jit.Arange(vocab, jit.Int32).Reshape(1, vocab)).Astype(jit.Float32)
	mask := jit.Arange(maxLen, jit.Int32).Lt(length).Astype(jit.Float32).Reshape(1, maxLen, 1)
	h := oh.MatMul(emb).Reshape(beams, maxLen, dModel).Mul(mask).Sum(1).Div(length.Astype(jit.Float32))
	return h.MatMul(out)
}

// LengthPenalty normalizes beam scores by ((5+t)/6)^alpha; t is static.
func LengthPenalty(scores jit.Array, t int) jit.Array {
	return scores.Div(math.Pow((5+float64(t))/6, 0.6))
}

// LengthPenaltyTraced takes t as a traced scalar.
func LengthPenaltyTraced(scores, t jit.Array) jit.Array {
	return scores.Div(t.Astype(jit.Float32).Add(5).Div(6).Pow(jit.Scalar(float32(0.6))))
}

func weights() (jit.Array, jit.Array) {
	e := make([]float32, vocab*dModel)
	for i := range e {
		e[i] = float32(math.Sin(float64(i) * 0.61))
	}
	o := make([]float32, dModel*vocab)
	for i := range o {
		o[i] = float32(math.Cos(float64(i) * 0.43))
	}
	return jit.FromSlice(e, vocab, dModel), jit.FromSlice(o, dModel, vocab)
}

// argmaxRows picks the best token per beam on the host.
func argmaxRows(logits []float32) []int32 {
	best := make([]int32, beams)
	for b := 0; b < beams; b++ {
		m := float32(math.Inf(-1))
		for v := 0; v < vocab; v++ {
			if x := logits[b*vocab+v]; x > m {
				m, best[b] = x, int32(v)
			}
		}
	}
	return best
}

func main() {
	emb, out := weights()
	start := []int32{1, 4, 7}

	// Growing history: a new shape every step.
	step := jit.Jit(DecodeStep)
	pen := jit.Jit(LengthPenalty, jit.StaticArgnums(1))
	hist := append([]int32(nil), start...)
	t := 1
	for ; t < 8; t++ {
		logits := step.Call(emb, out, jit.FromSlice(hist, beams, t)) // want shapechurn
		scored := pen.Call(logits, t)                                // want staticargs
		next := argmaxRows(scored.Float32s())
		grown := make([]int32, 0, beams*(t+1))
		for b := 0; b < beams; b++ {
			grown = append(grown, hist[b*t:(b+1)*t]...)
			grown = append(grown, next[b])
		}
		hist = grown
	}
	fmt.Println("growing history:", hist)

	// Fixed buffer, traced length: one compile for the whole decode.
	stepB := jit.Jit(DecodeStepBuf)
	penT := jit.Jit(LengthPenaltyTraced)
	buf := make([]int32, beams*maxLen)
	for b := 0; b < beams; b++ {
		buf[b*maxLen] = start[b]
	}
	for t := 1; t < 8; t++ {
		n := jit.Scalar(int32(t))
		logits := stepB.Call(emb, out, jit.FromSlice(buf, beams, maxLen), n)
		next := argmaxRows(penT.Call(logits, n).Float32s())
		for b := 0; b < beams; b++ {
			buf[b*maxLen+t] = next[b]
		}
	}
	fmt.Println("fixed buffer:   ", buf)
	fmt.Printf("compiles: growing=%d fixed=%d penalty=%d/%d\n",
		step.Stats().Compiles, stepB.Stats().Compiles, pen.Stats().Compiles, penT.Stats().Compiles)
}
