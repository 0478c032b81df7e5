// seqbucket trains a bag-of-embeddings sentiment classifier on
// variable-length token sequences. The input pipeline buckets sequences by
// length (tf.data's bucket_by_sequence_length) so the jitted train step is
// compiled once per bucket, and the model masks out the padding.
//
// Ported from a Flax example: nn.Embed -> masked mean pooling -> two Dense
// layers with tanh -> a logistic head, trained with SGD + momentum.
package main

import (
	"fmt"
	"math"
	"math/rand"

	"corpus/lenbuckets"
	"corpus/lrsched"

	"github.com/jitlint/jitlint/jit"
)

const (
	vocabSize = 64
	embedDim  = 16
	hiddenDim = 16
	numHidden = 2
	batchSize = 8
	numEpochs = 3
	momentum  = 0.9
)

// Dense is one fully connected layer.
type Dense struct {
	W jit.Array // [in, out]
	B jit.Array // [out]
}

// Params is the model's pytree of weights.
type Params struct {
	Embed  jit.Array // [vocab, embed]
	Hidden []Dense
	Head   Dense
}

func glorot(rng *rand.Rand, in, out int) jit.Array {
	scale := math.Sqrt(6.0 / float64(in+out))
	w := make([]float32, in*out)
	for i := range w {
		w[i] = float32((rng.Float64()*2 - 1) * scale)
	}
	return jit.FromSlice(w, in, out)
}

func initParams(rng *rand.Rand) Params {
	emb := make([]float32, vocabSize*embedDim)
	for i := range emb {
		emb[i] = float32(rng.NormFloat64() * 0.5)
	}
	p := Params{Embed: jit.FromSlice(emb, vocabSize, embedDim)}
	in := embedDim
	for i := 0; i < numHidden; i++ {
		p.Hidden = append(p.Hidden, Dense{W: glorot(rng, in, hiddenDim), B: jit.Zeros(jit.Float32, hiddenDim)})
		in = hiddenDim
	}
	p.Head = Dense{W: glorot(rng, in, 1), B: jit.Zeros(jit.Float32, 1)}
	return p
}

// embed looks tokens up in the table with a one-hot matmul (there is no
// gather here; for a 64-word vocabulary the matmul is cheap).
func embed(table, tokens jit.Array) jit.Array {
	shp := tokens.Shape()
	b, l := shp[0], shp[1]
	ids := jit.Arange(vocabSize, jit.Int32).Reshape(1, 1, vocabSize)
	onehot := tokens.Reshape(b, l, 1).Eq(ids).Astype(jit.Float32)
	return onehot.MatMul(table) // [B, L, D]
}

// Logits is the forward pass: masked mean pooling then the MLP.
func Logits(p Params, tokens, mask jit.Array) jit.Array {
	e := embed(p.Embed, tokens)
	shp := mask.Shape()
	m := mask.Reshape(shp[0], shp[1], 1)
	pooled := e.Mul(m).Sum(1).Div(m.Sum(1).Max(1)) // [B, D]
	h := pooled
	for _, layer := range p.Hidden {
		h = h.MatMul(layer.W).Add(layer.B).Tanh()
	}
	return h.MatMul(p.Head.W).Add(p.Head.B).Reshape(shp[0])
}

// Loss is the mean binary cross-entropy with logits.
func Loss(p Params, tokens, mask, labels jit.Array) jit.Array {
	z := Logits(p, tokens, mask)
	return jit.Softplus(z).Sub(labels.Mul(z)).Mean()
}

// TrainState holds the weights and the momentum buffers.
type TrainState struct {
	Params   Params
	Velocity Params
}

var lossAndGrad = jit.ValueAndGrad[func(Params, jit.Array, jit.Array, jit.Array) (jit.Array, Params)](Loss)

// TrainStep is one SGD-with-momentum step; lr is a traced scalar so the
// schedule can change it every step.
func TrainStep(s TrainState, tokens, mask, labels, lr jit.Array) (TrainState, jit.Array) {
	loss, g := lossAndGrad(s.Params, tokens, mask, labels)
	upd := func(p, v, g jit.Array) (jit.Array, jit.Array) {
		v = v.Mul(momentum).Add(g)
		return p.Sub(v.Mul(lr)), v
	}
	var next TrainState
	next.Params.Embed, next.Velocity.Embed = upd(s.Params.Embed, s.Velocity.Embed, g.Embed)
	for i := range s.Params.Hidden {
		var pl, vl Dense
		pl.W, vl.W = upd(s.Params.Hidden[i].W, s.Velocity.Hidden[i].W, g.Hidden[i].W)
		pl.B, vl.B = upd(s.Params.Hidden[i].B, s.Velocity.Hidden[i].B, g.Hidden[i].B)
		next.Params.Hidden = append(next.Params.Hidden, pl)
		next.Velocity.Hidden = append(next.Velocity.Hidden, vl)
	}
	next.Params.Head.W, next.Velocity.Head.W = upd(s.Params.Head.W, s.Velocity.Head.W, g.Head.W)
	next.Params.Head.B, next.Velocity.Head.B = upd(s.Params.Head.B, s.Velocity.Head.B, g.Head.B)
	return next, loss
}

// Predict returns P(label = 1) per sequence.
func Predict(p Params, tokens, mask jit.Array) jit.Array {
	return Logits(p, tokens, mask).Logistic()
}

// Accuracy counts correct predictions at threshold 0.5 over a padded batch.
func Accuracy(p Params, tokens, mask, labels jit.Array) jit.Array {
	pred := Predict(p, tokens, mask).Gt(0.5).Astype(jit.Float32)
	return pred.Eq(labels).Astype(jit.Float32).Sum()
}

func zerosLike(p Params) Params {
	z := func(a jit.Array) jit.Array { return jit.Zeros(a.Dtype(), a.Shape()...) }
	out := Params{Embed: z(p.Embed), Head: Dense{W: z(p.Head.W), B: z(p.Head.B)}}
	for _, l := range p.Hidden {
		out.Hidden = append(out.Hidden, Dense{W: z(l.W), B: z(l.B)})
	}
	return out
}

func main() {
	rng := rand.New(rand.NewSource(7))
	train := lenbuckets.Synthetic(rng, 160, vocabSize, 4, 48)
	heldOut := lenbuckets.Synthetic(rng, 12, vocabSize, 4, 48)

	bucketer := lenbuckets.Bucketer{Bounds: []int{16, 32, 48}, BatchSize: batchSize}
	state := TrainState{Params: initParams(rng)}
	state.Velocity = zerosLike(state.Params)

	stepsPerEpoch := len(train) / batchSize
	sched := lrsched.WarmupCosine(1.0, 0.02, 6, numEpochs*stepsPerEpoch)
	fmt.Println(lrsched.Describe("lr", sched, 0, 3, 6, 20, 40))

	step := jit.Jit(TrainStep)
	acc := jit.Jit(Accuracy)
	globalStep := 0
	for epoch := 0; epoch < numEpochs; epoch++ {
		batches, err := bucketer.Batches(rng, train)
		if err != nil {
			panic(err)
		}
		var total float64
		for _, b := range batches {
			var loss jit.Array
			state, loss = step.Call(state, b.Tokens, b.Mask, b.Labels, sched.Value(globalStep))
			total += loss.Item()
			globalStep++
		}
		fmt.Printf("epoch %d: %d batches, mean loss %.4f, lr now %.4f\n",
			epoch, len(batches), total/float64(len(batches)), sched(globalStep))
	}
	st := step.Stats()
	fmt.Printf("train step: %d calls compiled %d times (%d buckets)\n", st.Compiles+st.Hits, st.Compiles, len(bucketer.Bounds))

	// Held-out accuracy, evaluated one example at a time as the original
	// notebook did.
	predict := jit.Jit(Predict)
	correct := 0
	for _, ex := range heldOut {
		b := lenbuckets.Unpadded(ex)
		p := predict.Call(state.Params, b.Tokens, b.Mask) // want shapechurn
		if (p.Item() > 0.5) == (ex.Label == 1) {
			correct++
		}
	}
	fmt.Printf("held-out accuracy (per example): %d/%d, predict compiled %d times\n",
		correct, len(heldOut), predict.Stats().Compiles)

	// The same held-out set through the bucketed pipeline: each example is
	// padded to its bucket, so the accuracy program sees at most three shapes.
	var hits float64
	for _, ex := range heldOut {
		bd, err := bucketer.BucketFor(len(ex.Tokens))
		if err != nil {
			panic(err)
		}
		b := lenbuckets.Pad([]lenbuckets.Example{ex}, bd)
		hits += acc.Call(state.Params, b.Tokens, b.Mask, b.Labels).Item()
	}
	fmt.Printf("held-out accuracy (bucketed): %.0f/%d, accuracy compiled %d times\n",
		hits, len(heldOut), acc.Stats().Compiles)
}
