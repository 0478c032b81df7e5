package ir

// Cost is a static, XLA-like estimate of what running a jaxpr costs, in the
// spirit of jax.stages.Lowered.cost_analysis().
type Cost struct {
	// Flops counts arithmetic operations: one per output element of each
	// elementwise op (comparisons, selects and conversions included),
	// 2·M·N·K for a matrix product, one per input element of a reduction.
	Flops float64
	// Transcendentals counts output elements of transcendental elementwise
	// ops (IsTranscendental: sin, exp, log, sqrt, pow, ...); these are not
	// also counted as flops.
	Transcendentals float64
	// BytesAccessed is the size of the jaxpr's inputs, constants and outputs.
	BytesAccessed float64
}

// CostOf estimates the cost of running j once.
//
// Data movement (broadcast_in_dim, reshape, transpose, slice, pad,
// concatenate, squeeze, iota), stop_gradient (an identity) and debug_print
// cost no flops. integer_pow counts one flop per element. Control flow: jit
// costs its inner jaxpr; cond costs the most expensive branch (Flops and
// Transcendentals maximised separately); scan costs length × its body; while
// costs its body and its condition once each, since the trip count is
// unknown before running, so a while loop's estimate is a lower bound.
func CostOf(j *Jaxpr) Cost {
	c := computeCost(j)
	for _, v := range j.Constvars {
		c.BytesAccessed += avalBytes(v.Aval)
	}
	for _, v := range j.Invars {
		c.BytesAccessed += avalBytes(v.Aval)
	}
	for _, a := range j.Outvars {
		c.BytesAccessed += avalBytes(a.Type())
	}
	return c
}

// avalBytes is the size of a value of type a in bytes.
func avalBytes(a Aval) float64 {
	return float64(a.Size() * a.DType.ItemSize())
}

// computeCost sums the flops and transcendentals of j's equations.
func computeCost(j *Jaxpr) Cost {
	var c Cost
	for _, e := range j.Eqns {
		ec := eqnCost(e)
		c.Flops += ec.Flops
		c.Transcendentals += ec.Transcendentals
	}
	return c
}

// eqnCost is the flops and transcendentals of one equation.
func eqnCost(e *Eqn) Cost {
	outElems := 0.0
	if len(e.Out) > 0 {
		outElems = float64(e.Out[0].Aval.Size())
	}
	switch {
	case IsTranscendental(e.Prim):
		return Cost{Transcendentals: outElems}
	case IsElementwise(e.Prim):
		return Cost{Flops: outElems}
	}
	switch e.Prim {
	case ReduceSum, ReduceMax, ReduceMin:
		return Cost{Flops: float64(e.In[0].Type().Size())}
	case DotGeneral:
		k := 1.0
		if dims, ok := e.Params["dimension_numbers"].(DotDims); ok {
			lhs := e.In[0].Type().Shape
			for _, d := range dims.LhsContract {
				k *= float64(lhs[d])
			}
		}
		return Cost{Flops: 2 * outElems * k}
	case Jit:
		return subCost(e, "jaxpr")
	case CustomJVPCall:
		return subCost(e, "call_jaxpr")
	case Cond:
		var c Cost
		branches, _ := e.Params["branches"].([]*ClosedJaxpr)
		for _, b := range branches {
			bc := computeCost(b.Jaxpr)
			c.Flops = max(c.Flops, bc.Flops)
			c.Transcendentals = max(c.Transcendentals, bc.Transcendentals)
		}
		return c
	case Scan:
		c := subCost(e, "jaxpr")
		n, _ := e.Params["length"].(int)
		return Cost{Flops: float64(n) * c.Flops, Transcendentals: float64(n) * c.Transcendentals}
	case While:
		body, cond := subCost(e, "body_jaxpr"), subCost(e, "cond_jaxpr")
		return Cost{Flops: body.Flops + cond.Flops, Transcendentals: body.Transcendentals + cond.Transcendentals}
	}
	return Cost{}
}

// subCost is the cost of the nested jaxpr in parameter key, zero if absent.
func subCost(e *Eqn, key string) Cost {
	if cj, ok := e.Params[key].(*ClosedJaxpr); ok && cj != nil {
		return computeCost(cj.Jaxpr)
	}
	return Cost{}
}
