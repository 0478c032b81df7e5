package ir

import "testing"

func TestBuilder(t *testing.T) {
	b := NewBuilder()
	c := b.Const(Aval{Shape: []int{3}, DType: Float32})
	x := b.In(Float32, 3)
	y := b.Same(Mul, x, c)
	p := b.Compare(Gt, y, Literal{Value: 0, Aval: Aval{DType: Float32}})
	outs := b.Multi(SelectN, nil, []Aval{y.Aval}, p, x, y)
	cj := b.Done("f", outs[0])
	if got, want := cj.String(), "{ lambda a:f32[3]; b:f32[3]. let\n    c:f32[3] = mul b a\n    d:bool[3] = gt c 0.0:f32[]\n    e:f32[3] = select_n d b c\n  in (e,) }"; got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if cj.Name != "f" || len(b.Eqns()) != 3 || p.Aval.DType != Bool {
		t.Errorf("name %q, %d eqns, compare dtype %v", cj.Name, len(b.Eqns()), p.Aval.DType)
	}
}
