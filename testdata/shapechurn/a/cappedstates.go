package a

import "github.com/jitlint/jitlint/jit"

// A loop state that is a slice has the lengths its start and what each
// iteration makes of it can reach: a beam search's beams start as one
// hypothesis and are cut to the beam width on every step, so a batch of
// the beams takes two shapes however many steps run, while a prefix that
// grows by a token per step takes a new one on each.

const csWidth = 3

type csHyp struct {
	toks  []int32
	score float64
}

var csScore = jit.Jit(func(x jit.Array) jit.Array { return x.Sum(1) })

// csExtend keeps the best csWidth extensions of every beam.
func csExtend(beams []csHyp, lp []float32) []csHyp {
	var cand []csHyp
	for _, h := range beams {
		for k := 0; k < csWidth; k++ {
			cand = append(cand, csHyp{append(append([]int32{}, h.toks...), int32(k)), h.score + float64(lp[k])})
		}
	}
	return cand[:min(csWidth, len(cand))]
}

// csSurvivors keeps the beams above a threshold, at most csWidth of them.
func csSurvivors(beams []csHyp, lp []float32) []csHyp {
	var keep []csHyp
	for i, h := range beams {
		if lp[i] > 0 {
			keep = append(keep, h)
		}
	}
	return keep[:min(csWidth, len(keep))]
}

func csPrefix(beams []csHyp) jit.Array {
	return jit.Zeros(jit.Float32, len(beams), len(beams[0].toks))
}

func csPadded(beams []csHyp) jit.Array { return jit.Zeros(jit.Float32, len(beams), 16) }

func cappedStates() {
	beams := []csHyp{{toks: []int32{1}}}
	for t := 0; t < 12; t++ {
		lp := csScore.Call(csPadded(beams)) // not reported: one beam, then always three
		beams = csExtend(beams, lp.Float32s())
	}
	beams = []csHyp{{toks: []int32{1}}}
	for t := 0; t < 12; t++ {
		lp := csScore.Call(csPrefix(beams)) // want `argument x has a different shape on each iteration`
		beams = csExtend(beams, lp.Float32s())
	}
	beams = []csHyp{{toks: []int32{1}}, {toks: []int32{2}}}
	for t := 0; t < 12; t++ {
		lp := csScore.Call(csPadded(beams)) // not reported: at most three beams survive, four shapes for twelve calls
		beams = csSurvivors(beams, lp.Float32s())
	}
}
