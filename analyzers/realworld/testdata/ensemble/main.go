// Command ensemble trains a small ensemble: one jitted step per member,
// built once in a loop whose closures capture the member's config (Go
// 1.22 gives each iteration its own variable), stored in a map and called
// every step; a distillation step whose temperature is a static argument
// annealed every step; and a regulariser whose static dropout rate cycles
// through three values.
package main

import (
	"fmt"
	"sort"

	"github.com/jitlint/jitlint/jit"
)

type member struct {
	Name  string
	Scale float64
	Depth int
}

type stepFn = *jit.Func[func(w, x jit.Array) jit.Array]

func buildSteps(members []member) map[string]stepFn {
	steps := map[string]stepFn{}
	for _, m := range members {
		steps[m.Name] = jit.Jit(func(w, x jit.Array) jit.Array {
			h := x
			for range m.Depth {
				h = h.MatMul(w).Tanh()
			}
			return w.Sub(x.Transpose(1, 0).MatMul(h).Mul(m.Scale * 0.01))
		})
	}
	return steps
}

// distill softens the teacher's scores by temperature t.
func distill(student, teacher jit.Array, t float64) jit.Array {
	soft := teacher.Div(t).Exp()
	soft = soft.Div(soft.Sum())
	return student.Sub(student.Sub(soft).Mul(0.1))
}

// regularise drops a fixed fraction of the weight mass.
func regularise(w jit.Array, rate float64) jit.Array {
	return w.Mul(1 - rate)
}

func main() {
	members := []member{{"small", 1, 1}, {"wide", 2, 2}, {"deep", 0.5, 4}}
	steps := buildSteps(members)
	names := make([]string, 0, len(steps))
	for name := range steps {
		names = append(names, name)
	}
	sort.Strings(names)
	x := jit.Full(0.3, jit.Float32, 4, 4)
	ws := map[string]jit.Array{}
	for _, n := range names {
		ws[n] = jit.Full(0.1, jit.Float32, 4, 4)
	}
	for range 10 {
		for _, n := range names {
			ws[n] = steps[n].Call(ws[n], x)
		}
	}
	for _, n := range names {
		fmt.Println(n, ws[n].Sum().Item())
	}

	dist := jit.Jit(distill, jit.StaticArgnums(2))
	reg := jit.Jit(regularise, jit.StaticArgnums(1))
	rates := []float64{0, 0.1, 0.2}
	student := jit.Zeros(jit.Float32, 4)
	teacher := jit.FromSlice([]float32{2, 1, 0.5, 0})
	temp := 4.0
	for step := range 16 {
		student = dist.Call(student, teacher, temp) // want staticargs
		temp *= 0.9
		student = reg.Call(student, rates[step%len(rates)])
	}
	fmt.Println("student", student, "compiles", dist.Stats().Compiles, reg.Stats().Compiles)
}
