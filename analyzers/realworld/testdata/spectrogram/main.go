// Command spectrogram ports a librosa-style log-mel front end to Go: clips
// of different lengths are framed (256 samples, hop 128), windowed, sent
// through a DFT written as a matrix product, pooled into mel bands and
// summarised per clip for a keyword-spotting index.
package main

import (
	"fmt"
	"math"
	"math/rand"

	"corpus/sigproc"

	"github.com/jitlint/jitlint/jit"
)

const (
	sampleRate = 8000.0
	hop        = 128
	frameLen   = 2 * hop
	bins       = frameLen/2 + 1
	nMels      = 24
)

var lengthBuckets = []int{8192, 16384}

var (
	dftRe, dftIm = sigproc.DFT(frameLen, bins, sigproc.Hann(frameLen))
	melFB        = sigproc.MelFilters(bins, nMels, sampleRate)
)

// logMel maps frames [F, frameLen] to log-mel energies [F, nMels].
func logMel(frames jit.Array) jit.Array {
	re := frames.MatMul(dftRe)
	im := frames.MatMul(dftIm)
	power := re.Mul(re).Add(im.Mul(im))
	return power.MatMul(melFB).Add(1e-6).Log()
}

// LogMelLoop is the line-by-line port of
//
//	frames = np.stack([x[i*hop : i*hop + n] for i in range(n_frames)])
func LogMelLoop(clip jit.Array) jit.Array {
	n := clip.Shape()[0]
	nFrames := (n-frameLen)/hop + 1
	rows := make([]jit.Array, 0, nFrames)
	for i := 0; i < nFrames; i++ { // want unrolledloop
		rows = append(rows, clip.Slice([]int{i * hop}, []int{i*hop + frameLen}).Reshape(1, frameLen))
	}
	return logMel(jit.Concatenate(0, rows...))
}

// LogMel frames with a reshape instead of a Python-style list of slices.
func LogMel(clip jit.Array) jit.Array {
	return logMel(sigproc.Frames(clip, hop))
}

// Deltas appends first and second order regression deltas over time
// (librosa.feature.delta with width 5) to a [F, M] feature matrix.
func Deltas(feat jit.Array) jit.Array {
	f := feat.Shape()[0]
	m := feat.Shape()[1]
	pad := jit.Concatenate(0,
		feat.Slice([]int{0, 0}, []int{1, m}), feat.Slice([]int{0, 0}, []int{1, m}),
		feat,
		feat.Slice([]int{f - 1, 0}, []int{f, m}), feat.Slice([]int{f - 1, 0}, []int{f, m}))
	d := jit.Zeros(jit.Float32, f, m)
	for k := 1; k <= 2; k++ {
		ahead := pad.Slice([]int{2 + k, 0}, []int{2 + k + f, m})
		behind := pad.Slice([]int{2 - k, 0}, []int{2 - k + f, m})
		d = d.Add(ahead.Sub(behind).Mul(float64(k)))
	}
	return d.Div(10)
}

// ClipEmbedding is the bucketed version: a clip padded to a bucket length
// with its sample mask; it returns the masked mean and standard deviation
// of log-mel and delta features over real frames, [4*nMels].
func ClipEmbedding(padded, mask jit.Array) jit.Array {
	feat := LogMel(padded)
	frameMask := sigproc.FrameMask(mask, hop)
	nf := feat.Shape()[0]
	w := frameMask.Reshape(nf, 1)
	count := w.Sum().Max(1)
	delta := Deltas(feat)
	both := jit.Concatenate(1, feat, delta)
	mean := both.Mul(w).Sum(0).Div(count)
	centred := both.Sub(mean.Reshape(1, -1)).Mul(w)
	std := centred.Mul(centred).Sum(0).Div(count).Sqrt()
	return jit.Concatenate(0, mean, std)
}

// MeanEnergy summarises a clip's log-mel spectrogram by its mean.
func MeanEnergy(clip jit.Array) jit.Array {
	return LogMel(clip).Mean()
}

type clip struct {
	name    string
	samples []float32
}

func makeClips(rng *rand.Rand) []clip {
	var out []clip
	for i := 0; i < 9; i++ {
		n := 6000 + rng.Intn(9000)
		f0 := 200 + 300*rng.Float64()
		f1 := 1000 + 2500*rng.Float64()
		out = append(out, clip{
			name:    fmt.Sprintf("kw%02d", i),
			samples: sigproc.Chirp(n, sampleRate, f0, f1, 0.05, rng),
		})
	}
	return out
}

func cosine(a, b []float32) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += float64(a[i]) * float64(b[i])
		aa += float64(a[i]) * float64(a[i])
		bb += float64(b[i]) * float64(b[i])
	}
	return ab / math.Sqrt(aa*bb+1e-12)
}

func main() {
	rng := rand.New(rand.NewSource(99))
	clips := makeClips(rng)

	// Check the vectorised framing against the loop port on one clip.
	ref := clips[0].samples[:sigproc.RoundUp(len(clips[0].samples), hop)-hop]
	refArr := jit.FromSlice(ref)
	loopSpec := jit.Jit(LogMelLoop).Call(refArr)
	fastSpec := jit.Jit(LogMel).Call(refArr)
	diff := loopSpec.Sub(fastSpec).Abs().MaxReduce().Item()
	fmt.Printf("framing check on %s (%d frames): max |loop - reshape| = %.2g\n",
		clips[0].name, loopSpec.Shape()[0], diff)

	// Per-clip loudness, straight on the trimmed clips.
	energy := jit.Jit(MeanEnergy)
	for _, c := range clips {
		n := len(c.samples) / hop * hop
		e := energy.Call(jit.FromSlice(c.samples[:n])) // want shapechurn
		fmt.Printf("%s  %5d samples  mean log-mel %.3f\n", c.name, len(c.samples), e.Item())
	}

	// Embeddings over padded clips: two bucket lengths cover every clip.
	embed := jit.Jit(ClipEmbedding)
	embs := make([][]float32, len(clips))
	for i, c := range clips {
		size := 0
		for _, b := range lengthBuckets {
			if len(c.samples) <= b {
				size = b
				break
			}
		}
		padded, mask, err := jit.PadTo(jit.FromSlice(c.samples), size)
		if err != nil {
			panic(err) // every clip fits the largest bucket
		}
		embs[i] = embed.Call(padded, mask).Float32s()
	}

	// Nearest neighbour of each clip in embedding space.
	for i := range clips {
		best, bestSim := -1, -2.0
		for j := range clips {
			if i == j {
				continue
			}
			if s := cosine(embs[i], embs[j]); s > bestSim {
				best, bestSim = j, s
			}
		}
		fmt.Printf("%s nearest %s (cos %.4f)\n", clips[i].name, clips[best].name, bestSim)
	}

	fmt.Printf("compiles: energy %d over %d clips, embedding %d %v\n",
		energy.Stats().Compiles, len(clips), embed.Stats().Compiles, embed.Signatures())
}
