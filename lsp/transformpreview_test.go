package lsp

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/internal/previewer"
)

// startTrusted starts a server in a trusted workspace, the folder dir,
// with a markdown hover client.
func startTrusted(t *testing.T, dir string) *testClient {
	c := startServer(t, Options{})
	c.initializeIn(dir, map[string]any{"textDocument": map[string]any{"hover": map[string]any{"contentFormat": []string{"markdown"}}}},
		map[string]any{"allowCodeExecution": true})
	return c
}

// TestHoverOnMakeJaxprCall: the jit.MakeJaxpr(F) call (not only F's name
// in it) shows F's preview, as the jit.Jit(F) call does.
func TestHoverOnMakeJaxprCall(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a preview harness")
	}
	dir := sampleModule(t, map[string]string{"relu/made.go": `package relu

import "github.com/jitlint/jitlint/jit"

// Scale doubles x.
func Scale(x jit.Array) jit.Array { return x.Mul(2) }

// ScaleJaxpr is Scale's jaxpr.
func ScaleJaxpr() (*jit.ClosedJaxpr, error) { return jit.MakeJaxpr(Scale)(jit.Spec(jit.Float32, 3)) }
`})
	c := startTrusted(t, dir)
	u, text := openFile(c, filepath.Join(dir, "relu", "made.go"))
	h := c.hoverAt(u, text, "jit.MakeJaxpr(Scale)", len("jit.Make"))
	if !strings.Contains(h, "**Scale**") || !strings.Contains(h, "{ lambda ; a:f32[8]. let") || !strings.Contains(h, "mul a 2.0") {
		t.Errorf("hover on the jit.MakeJaxpr call:\n%s", h)
	}
}

// TestHoverOnTransformations hovers on jit.Vmap, jit.Grad and their
// compositions and checks the transformed jaxprs, the batched signature,
// a transformation's error at the user's call and options jitls cannot
// read.
func TestHoverOnTransformations(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a preview harness")
	}
	dir := sampleModule(t, map[string]string{"relu/transform.go": `package relu

import "github.com/jitlint/jitlint/jit"

// Choose runs one branch: relu when sharp, softplus otherwise.
//
//jit:args bool[], f32[3]
func Choose(sharp, x jit.Array) jit.Array { return jit.Cond(sharp, jit.Relu, jit.Softplus, x) }

// Wave is a scalar function of a scalar.
//
//jit:args f32[]
func Wave(x jit.Array) jit.Array { return x.Cos().Sin() }

// Double has no gradient: its result is not a scalar.
func Double(x jit.Array) jit.Array { return x.Mul(2) }

type grad1 = func(jit.Array) jit.Array

// Transformed applies the transformations the previews show.
func Transformed(opts []jit.Option, s, x, y jit.Array) {
	jit.Vmap(Choose)(s, x)
	jit.Vmap(Choose, jit.InAxes(jit.NotMapped, 1))
	jit.Grad[grad1](Wave)(y)
	jit.Jit(jit.Vmap(Double, jit.InAxes(1)))
	jit.Vmap(jit.Grad[grad1](Wave))
	jit.Grad[grad1](Double)(x)
	jit.Vmap(Double, opts...)
	type local = func(jit.Array) jit.Array
	jit.Grad[local](Wave)(y)
}
`})
	c := startTrusted(t, dir)
	u, text := openFile(c, filepath.Join(dir, "relu", "transform.go"))

	// A batched predicate: both branches run, select_n chooses.
	h := c.hoverAt(u, text, "jit.Vmap(Choose)", len("jit.V"))
	if !strings.Contains(h, "{ lambda ; a:bool[4] b:f32[4,3]. let") || !strings.Contains(h, "select_n") || strings.Contains(h, "cond[") ||
		!strings.Contains(h, "`bool[4], f32[4,3]`") || !strings.Contains(h, "with a batch dimension of 4 for each Vmap") {
		t.Errorf("hover on jit.Vmap(Choose):\n%s", h)
	}
	// An unbatched predicate (NotMapped) keeps a real cond; InAxes places the batch dimension.
	if h := c.hoverAt(u, text, "jit.Vmap(Choose, jit.InAxes", len("jit.V")); !strings.Contains(h, "{ lambda ; a:bool[] b:f32[3,4]. let") || !strings.Contains(h, "cond[") {
		t.Errorf("hover on jit.Vmap(Choose, jit.InAxes(jit.NotMapped, 1)):\n%s", h)
	}
	// Grad: the forward and the transposed equations, as JAX prints them.
	h = c.hoverAt(u, text, "jit.Grad[grad1](Wave)", len("jit.G"))
	want := "{ lambda ; a:f32[]. let\n    b:f32[] = cos a\n    c:f32[] = sin a\n    _:f32[] = sin b\n    d:f32[] = cos b\n" +
		"    e:f32[] = mul 1.0:f32[] d\n    f:f32[] = neg e\n    g:f32[] = mul f c\n  in (g,) }"
	if !strings.Contains(h, want) {
		t.Errorf("hover on jit.Grad[grad1](Wave):\n%s\nwant the jaxpr\n%s", h, want)
	}
	// F's name inside the call is F, as written.
	if h := c.hoverAt(u, text, "jit.Grad[grad1](Wave)", len("jit.Grad[grad1](W")); !strings.Contains(h, "**Wave**") || strings.Contains(h, "neg") {
		t.Errorf("hover on Wave in jit.Grad[grad1](Wave):\n%s", h)
	}
	// A function used only transformed is previewed as written on its name.
	if h := c.hoverAt(u, text, "func Double", len("func D")); !strings.Contains(h, "{ lambda ; a:f32[8]. let") {
		t.Errorf("hover on Double:\n%s", h)
	}
	// jit.Jit of a Vmap with InAxes: the batch dimension at axis 1.
	if h := c.hoverAt(u, text, "jit.Jit(jit.Vmap(Double", len("jit.J")); !strings.Contains(h, "{ lambda ; a:f32[8,4]. let") || !strings.Contains(h, "mul a 2.0") {
		t.Errorf("hover on jit.Jit(jit.Vmap(Double, jit.InAxes(1))):\n%s", h)
	}
	// Vmap of Grad.
	if h := c.hoverAt(u, text, "jit.Vmap(jit.Grad", len("jit.V")); !strings.Contains(h, "{ lambda ; a:f32[4]. let") || !strings.Contains(h, "neg") {
		t.Errorf("hover on jit.Vmap(jit.Grad[grad1](Wave)):\n%s", h)
	}
	// The transformation's error, at the user's call.
	i := strings.Index(text, "jit.Grad[grad1](Double)")
	at := fmt.Sprintf("transform.go:%d:%d", strings.Count(text[:i], "\n")+1, i-strings.LastIndex(text[:i], "\n"))
	h = c.hoverAt(u, text, "jit.Grad[grad1](Double)", len("jit.G"))
	if !strings.Contains(h, "No jaxpr preview") || !strings.Contains(h, "Gradient only defined for scalar-output functions. Output had shape: [8]") ||
		!strings.Contains(h, at) || strings.Contains(h, previewer.HarnessFile) {
		t.Errorf("hover on jit.Grad[grad1](Double) should show jit's error at %s:\n%s", at, h)
	}
	// Options that are not constants in the source: said, not guessed.
	if h := c.hoverAt(u, text, "jit.Vmap(Double, opts...)", len("jit.V")); !strings.Contains(h, "cannot be previewed") || !strings.Contains(h, "opts...") {
		t.Errorf("hover on jit.Vmap(Double, opts...):\n%s", h)
	}
	// A type argument the harness cannot name: said, and the other previews still build.
	if h := c.hoverAt(u, text, "jit.Grad[local](Wave)", len("jit.G")); !strings.Contains(h, "cannot be previewed") || !strings.Contains(h, "declared inside a function") {
		t.Errorf("hover on jit.Grad[local](Wave):\n%s", h)
	}
}
