package a

import "github.com/jitlint/jitlint/jit"

// Loop bounds that a constructor stores in the value whose method is
// traced: the bound is the constructor's argument at the call that made
// the value.

type refineConfig struct {
	Width, Steps int
}

type refiner struct {
	cfg    refineConfig
	scales []float32
}

func newRefiner(cfg refineConfig) *refiner {
	r := &refiner{cfg: cfg}
	for i := 0; i < cfg.Width; i++ {
		r.scales = append(r.scales, float32(i))
	}
	return r
}

// Refine runs cfg.Steps iterations.
func (r *refiner) Refine(x jit.Array) jit.Array {
	for i := 0; i < r.cfg.Steps; i++ { // want `loop is unrolled into the trace`
		x = x.Mul(0.5).Add(x.Sin().Mul(r.scales[i%len(r.scales)]))
	}
	return x
}

// Polish runs cfg.Steps iterations without touching the slice.
func (r *refiner) Polish(x jit.Array) jit.Array {
	for i := 0; i < r.cfg.Steps; i++ { // want `loop is unrolled into the trace`
		x = x.Sin()
	}
	return x
}

func runRefiner(x jit.Array) {
	cfg := refineConfig{Width: 4, Steps: 40}
	r := newRefiner(cfg)
	jit.Jit(r.Refine).Call(x)
	jit.Jit(r.Polish).Call(x)
	short := newRefiner(refineConfig{Width: 4, Steps: 8})
	jit.Jit(short.Polish).Call(x)
}

// A bound two fields deep in a value built in place.
type nestedSteps struct{ cfg refineConfig }

func (n *nestedSteps) Run(x jit.Array) jit.Array {
	for i := 0; i < n.cfg.Steps; i++ { // want `loop is unrolled into the trace`
		x = x.Sin()
	}
	return x
}

func runNested(x jit.Array) {
	n := &nestedSteps{cfg: refineConfig{Steps: 40}}
	jit.Jit(n.Run).Call(x)
}
