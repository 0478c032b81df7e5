package a

import "github.com/jitlint/jitlint/jit"

// A wrapper stored in a field of a struct that is itself kept (appended
// to a slice, stored in a map) is kept: a table of models, one wrapper
// per model, each called again later, is not churn.

type ksTower struct{ scale float64 }

func (t *ksTower) Forward(x jit.Array) jit.Array { return x.Mul(t.scale) }

type ksTrained struct {
	name    string
	forward *jit.Func[func(jit.Array) jit.Array]
}

func ksModels(x jit.Array) []ksTrained {
	var models []ksTrained
	for _, t := range []*ksTower{{1}, {2}} {
		models = append(models, ksTrained{name: "t", forward: jit.Jit(t.Forward)}) // not reported: kept in the table
	}
	for _, m := range models {
		for range 10 {
			m.forward.Call(x)
		}
	}
	return models
}
