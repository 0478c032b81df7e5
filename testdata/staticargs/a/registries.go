package a

import "github.com/jitlint/jitlint/jit"

// An interface call whose receiver comes from a registry runs a method of
// one of the package's types that it makes interface values of, on one of
// those values: a method value jitted in it is made on every call, and
// state that the method advances on the object it runs on is new on each.

type rgModel interface{ Predict(x jit.Array) jit.Array }

var rgRegistry = map[string]func() rgModel{}

func init() {
	rgRegistry["gated"] = func() rgModel { return &rgGated{} }
	rgRegistry["annealed"] = func() rgModel { return &rgAnnealed{temp: 1} }
	rgRegistry["fixed"] = func() rgModel { return &rgFixed{temp: 2} }
}

type rgGated struct{ k float64 }

func (g *rgGated) score(x jit.Array) jit.Array { return x.Mul(g.k) }

func (g *rgGated) Predict(x jit.Array) jit.Array {
	return jit.Jit(g.score).Call(x) // want `jit.Jit runs on every call of Predict`
}

type rgParams struct {
	Temp float64 `jit:"static"`
}

var rgSoft = jit.Jit(func(p rgParams, x jit.Array) jit.Array { return x.Div(p.Temp) })

type rgAnnealed struct{ temp float64 }

func (a *rgAnnealed) Predict(x jit.Array) jit.Array {
	y := rgSoft.Call(rgParams{Temp: a.temp}, x) // want `static field Temp of argument p takes a new value`
	a.temp *= 0.9
	return y
}

type rgFixed struct{ temp float64 }

func (f *rgFixed) Predict(x jit.Array) jit.Array {
	return rgSoft.Call(rgParams{Temp: f.temp}, x) // not reported: the object's temperature does not change
}

func rgServe(names []string, x jit.Array) {
	var models []rgModel
	for _, n := range names {
		models = append(models, rgRegistry[n]())
	}
	for i := 0; i < 10; i++ {
		for _, m := range models {
			m.Predict(x)
		}
	}
}
