package a

import "github.com/jitlint/jitlint/jit"

// Parameters sized by a field of a configuration grid have as many shapes
// as the grid has values of that field: at the call inside a loop that
// feeds them back unchanged in shape, and after it. Widths made of the
// loop's values are a new shape on each. A call through one of two
// wrappers (one found in a table, or one made and added to it) returns the
// same dims from either: a choice between equal values is that value.

type gsConfig struct {
	LR     float64
	Hidden int
}

type gsParams struct{ W1, B1 jit.Array }

func gsGrid() []gsConfig {
	var out []gsConfig
	for _, lr := range []float64{0.05, 0.2, 0.5} {
		for _, l2 := range []float64{0, 1e-3} {
			out = append(out, gsConfig{lr + l2, 8}, gsConfig{lr, 16})
		}
	}
	return out
}

func gsInit(hidden int) gsParams {
	return gsParams{W1: jit.Zeros(jit.Float32, 4, hidden), B1: jit.Zeros(jit.Float32, hidden)}
}

func gsStep(p gsParams, x jit.Array) gsParams {
	return jit.ForiLoop(0, 5, func(_ jit.Array, p gsParams) gsParams {
		return gsParams{W1: p.W1.Sub(x.Sum().Mul(0.01)), B1: p.B1}
	}, p)
}

func gsLoss(p gsParams, x jit.Array) jit.Array { return x.MatMul(p.W1).Add(p.B1).Sum() }

var (
	gsTrain = jit.Jit(gsStep)
	gsEval  = jit.Jit(gsLoss)
)

func gridShapes(x jit.Array) {
	for _, c := range gsGrid() {
		p := gsInit(c.Hidden)
		for e := 0; e < 3; e++ {
			p = gsTrain.Call(p, x) // not reported: two widths
		}
		gsEval.Call(p, x) // not reported: two widths
	}
	table := map[int]*jit.Func[func(gsParams, jit.Array) gsParams]{}
	for _, c := range gsGrid() {
		train, ok := table[c.Hidden]
		if !ok {
			train = jit.Jit(gsStep)
			table[c.Hidden] = train
		}
		p := gsInit(c.Hidden)
		for e := 0; e < 3; e++ {
			p = train.Call(p, x) // not reported: one width per wrapper
		}
		gsEval.Call(p, x) // not reported: two widths
	}
	for i, c := range gsGrid() {
		p := gsInit(c.Hidden + i)
		gsEval.Call(p, x) // want `argument p has a different shape on each iteration`
	}
}

// A tiling by counting loops (the inner loop leaves from its test, in its
// body): edge tiles are cut by min, so the tiles have two heights and two
// widths however many there are.

type gsTile struct{ x0, y0, w, h int }

const gsWidth, gsHeight, gsTileSize = 100, 60, 16

func gsTiles() []gsTile {
	var out []gsTile
	for y := 0; y < gsHeight; y += gsTileSize {
		for x := 0; x < gsWidth; x += gsTileSize {
			out = append(out, gsTile{x, y, min(gsTileSize, gsWidth-x), min(gsTileSize, gsHeight-y)})
		}
	}
	return out
}

var gsShade = jit.Jit(func(u jit.Array) jit.Array { return u.Sin() })

func gridTiles() {
	for _, t := range gsTiles() {
		gsShade.Call(jit.Zeros(jit.Float32, t.h, t.w)) // not reported: four shapes for 28 tiles
	}
	for i, t := range gsTiles() {
		gsShade.Call(jit.Zeros(jit.Float32, t.h+i, t.w)) // want `argument u has a different shape on each iteration`
	}
}
