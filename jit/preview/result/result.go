// Package result is the contract between jitls's preview builder
// (internal/previewer, on the tools' side) and the preview harness it
// generates (package preview, linked into the user's test binary): the
// environment that tells the harness what to trace, and the JSON it writes
// back. It imports nothing, so that the tools can read a result without
// linking jit.
package result

// TestName is the generated harness's test function (run with
// -test.run ^TestJitlsPreview$).
const TestName = "TestJitlsPreview"

// The environment a harness binary reads.
const (
	// EnvFunction names the function (the key of a target) to trace.
	EnvFunction = "JITLS_PREVIEW_FUNC"
	// EnvMode is the Mode.
	EnvMode = "JITLS_PREVIEW_MODE"
	// EnvOut is the file the harness writes the Preview to, as JSON.
	EnvOut = "JITLS_PREVIEW_OUT"
)

// Mode says how far a preview goes.
type Mode string

const (
	// Jaxpr traces only.
	Jaxpr Mode = "jaxpr"
	// Measure traces, lowers, compiles and times a first call and cached
	// calls.
	Measure Mode = "measure"
)

// Preview is what the harness reports for one function.
type Preview struct {
	Function     string   `json:"function"`
	Jaxpr        string   `json:"jaxpr,omitempty"`
	JaxprSources string   `json:"jaxprSources,omitempty"` // printed with a "# file.go:line" per equation
	Sources      []Eqn    `json:"sources,omitempty"`      // every equation, nested ones after their parent
	In           []string `json:"in,omitempty"`           // input avals
	Out          []string `json:"out,omitempty"`          // output avals
	Eqns         int      `json:"eqns"`
	Backend      string   `json:"backend,omitempty"`
	Device       string   `json:"device,omitempty"`
	TraceMs      float64  `json:"traceMs"`
	LowerMs      float64  `json:"lowerMs"`
	CompileMs    float64  `json:"compileMs"`
	FirstCallMs  float64  `json:"firstCallMs"`
	CachedCallMs float64  `json:"cachedCallMs"`
	GPUEstimate  string   `json:"gpuEstimate,omitempty"`
	Error        string   `json:"error,omitempty"` // jit rejected the function or a stage failed
	Panic        string   `json:"panic,omitempty"` // the user's code panicked
	Stack        string   `json:"stack,omitempty"` // of the panic
}

// Failed reports whether the preview ended with an error or a panic.
func (p *Preview) Failed() bool { return p.Error != "" || p.Panic != "" }

// Eqn is one equation of a preview's jaxpr with the user's line that
// staged it (from the tracer's source map).
type Eqn struct {
	Prim string   `json:"prim"`
	File string   `json:"file,omitempty"` // absolute path; "" when unknown
	Line int      `json:"line,omitempty"`
	Out  []string `json:"out,omitempty"` // result avals, as JAX prints them
}
