package layers

// The names below are module-relative package paths ("jit/ir"), a path with
// "/..." for it and everything under it ("jit/..."), or, when the first
// element has a dot, a third-party import path prefix ("golang.org/x/tools").
// Lists are separated by spaces. The standard library is always allowed.

// A layer is a row of the import table: packages and what they may import
// directly. Every package of the module is in exactly one row, and every
// name a row allows is imported by one of its packages (so the table, and
// the doc made from it, say what the code does).
type layer struct {
	pkgs    string // the packages of the row
	imports string // what they may import, besides the standard library
	note    string // what the packages are, for the doc
}

// layers is the import table, bottom up: the runtime, then the tools.
var layers = []layer{
	// The runtime: jit and below.
	{"jit/ir", "", "the jaxpr: types, primitives, builder, printer, cost model"},
	{"jit/ir/eval jit/ir/fusion jit/backend", "jit/ir",
		"readers of jaxprs: the reference evaluator, the fusion planner, the backend interface and registry"},
	{"jit/cpu/internal/f32poly", "", "the polynomial constants of the CPU backend's float32 math, shared by its Go and assembly kernels"},
	{"jit/cpu/internal/asmgen", "jit/cpu/internal/f32poly", "writes the CPU backend's AVX2+FMA assembly (f32math_amd64.s)"},
	{"jit/cpu", "jit/ir jit/ir/eval jit/ir/fusion jit/backend jit/cpu/internal/f32poly golang.org/x/sys",
		"the CPU backend (x/sys/cpu says whether AVX2 and FMA are there)"},
	{"jit/gpu/internal/devapi", "jit/backend", "the device interface of the GPU backend: the CUDA driver or the simulator"},
	{"jit/gpu", "jit/ir jit/ir/eval jit/ir/fusion jit/backend jit/gpu/internal/devapi github.com/ebitengine/purego",
		"the GPU backend (purego loads the CUDA driver without cgo)"},
	{"jit/gpu/internal/ptxsim", "jit/gpu/internal/devapi", "the PTX interpreter and simulated device"},
	{"jit/events", "", "the JITLINT_EVENTS record: what the runtime writes and the tools read (standard library only)"},
	{"jit", "jit/ir jit/ir/eval jit/backend jit/cpu jit/events", "the tracer and the API; it links its own CPU backend, never the GPU's"},
	{"jit/preview/result", "", "the result of a preview: what the harness writes and the tools read (standard library only)"},
	{"jit/preview", "jit jit/ir jit/preview/result", "the preview harness's runtime, compiled into a preview's test binary in the user's module"},
	{"jit/preview/gpuestimate", "jit jit/gpu jit/preview", "a preview's GPU estimates, linked only when the previewed package links jit/gpu"},
	{"jit/gpu/internal/codelab", "jit jit/ir", "the codelab's programs, for the GPU tests and gpucheck"},
	{"jit/gpu/cmd/gpucheck", "jit/ir jit/ir/eval jit/gpu jit/gpu/internal/devapi jit/gpu/internal/ptxsim jit/gpu/internal/codelab",
		"checks the GPU backend on a real device or the simulator"},
	{"jit/internal/randjaxpr jit/internal/primtest", "jit/ir",
		"test support (random jaxprs; a sample program per primitive), imported by tests only"},
	{"examples/codelab", "jit jit/gpu", "the codelab"},

	// The tools: the analyzers, their drivers, the language server.
	{"internal/typecheck", "", "parses and type-checks one package, for the vet driver and the language server"},
	{"internal/jitapi", "golang.org/x/tools", "what the tools know of jit's API (its import path, Array, its staging, static and host-conversion names), checked against the real package by its test"},
	{"internal/factpass", "golang.org/x/tools", "runs analyzers on one package with facts as records, for the same two"},
	{"internal/previewer", "internal/jitapi jit/preview/result",
		"builds and runs previews (the harness, its process group, its temporary directory) for the language server and jitlint jaxpr-diff"},
	{"analyzers/traced", "internal/jitapi golang.org/x/tools", "the analysis of what is traced that every check builds on"},
	{"internal/snapshot", "analyzers/traced internal/jitapi internal/typecheck internal/factpass internal/previewer jit/events jit/preview/result golang.org/x/tools",
		"the language server's view of a workspace: immutable snapshots of each package directory (files, types, the analysis, facts), and the last run's recompiles"},
	{"internal/richtext", "", "rich text rendered as Markdown or plaintext, as each client can show it"},
	{"internal/textdoc", "go.lsp.dev", "text documents as LSP names them: file: URIs and paths, UTF-16 positions and byte offsets, incremental changes"},
	{"internal/jsonrpc", "go.lsp.dev", "the language server's JSON-RPC 2.0 connection: framing that resynchronises, ids echoed as sent"},
	{"analyzers/internal/astq", "golang.org/x/tools", "syntax helpers of the checks: the path to a node, the enclosing function, a loop's body, the name jit is imported as"},
	{"analyzers/tracedbool analyzers/unrolledloop analyzers/staticargs analyzers/traceeffect analyzers/wherenan",
		"analyzers/traced analyzers/internal/astq internal/jitapi golang.org/x/tools", "the checks (with fixes)"},
	{"analyzers/shapechurn analyzers/batchedcond analyzers/suppress", "analyzers/traced internal/jitapi golang.org/x/tools", "the checks (without fixes), and the suppression directives"},
	{"analyzers",
		"analyzers/tracedbool analyzers/unrolledloop analyzers/staticargs analyzers/shapechurn analyzers/traceeffect analyzers/wherenan analyzers/batchedcond analyzers/suppress analyzers/traced golang.org/x/tools",
		"the suite, as every driver runs it"},
	{"analyzers/golangci", "analyzers golang.org/x/tools github.com/golangci/plugin-module-register",
		"golangci-lint's module plugin"},
	{"analyzers/internal/fixturetest", "golang.org/x/tools", "test support for the checks' fixtures"},
	{"analyzers/realworld", "", "tests only: the checks on real programs"},
	{"lsp", "analyzers/suppress internal/snapshot internal/jsonrpc internal/textdoc internal/richtext internal/previewer jit/preview/result golang.org/x/tools go.lsp.dev",
		"the language server (cmd/jitls hands it the analyzers)"},
	{"lsp/lsptest", "", "test support: a small LSP client"},
	{"cmd/jitlint", "analyzers analyzers/traced analyzers/suppress internal/jitapi internal/typecheck internal/factpass internal/previewer jit/events golang.org/x/tools github.com/owenrumney/go-sarif",
		"the command line and the go vet driver"},
	{"cmd/jitls", "analyzers lsp golang.org/x/tools", "the language server's command"},
	{"bench/analyzers/analysistime", "analyzers golang.org/x/tools", "times the analyzers"},
	{"bench/lsp", "analyzers lsp/lsptest golang.org/x/tools", "times the language server"},
	{"internal/layers", "", "this table and the tests that hold the code to it"},
}

// A rule says what packages must never depend on, even through others.
type rule struct {
	pkgs  string // the packages the rule is about
	never string // what none of them may depend on
	why   string
}

// never holds the invariants that the layers keep, checked against the
// transitive dependencies (go list -deps).
var never = []rule{
	{"jit/... examples/...", "analyzers/... lsp/... cmd/... internal/... bench/... golang.org/x/tools go.lsp.dev github.com/golangci",
		"a program that imports jit links the runtime and nothing of the tools"},
	{"jit jit/ir/... jit/backend", "jit/gpu/... github.com/ebitengine/purego",
		"a program that never imports jit/gpu carries no CUDA binding, PTX generator or interpreter"},
	{"jit/ir/... jit/backend jit/cpu/... jit/gpu", "jit",
		"the backends are drivers: jit uses them, they never use jit"},
	{"jit/ir", "jit/...", "the bottom layer"},
	{"jit/cpu/...", "jit/gpu/...", "the backends are independent of each other"},
	{"jit/gpu jit/gpu/internal/devapi jit/gpu/internal/ptxsim", "jit/cpu/...", "the backends are independent of each other"},
	{"analyzers/...", "jit/... lsp/... cmd/...",
		"the analyzers know jit's API by import path and name (analysing user code does not load the JIT), and any driver runs them"},
	{"internal/typecheck internal/factpass", "analyzers/... lsp/... cmd/... jit/...", "the drivers' plumbing has no analysis logic"},
	{"internal/jitapi", "analyzers/... lsp/... cmd/... jit/... internal/snapshot internal/previewer", "what the tools know of jit is the bottom of the tools; it knows jit by name (its test loads the real package)"},
	{"internal/previewer", "jit jit/ir/... jit/backend jit/cpu/... jit/gpu/... lsp/... cmd/...",
		"previews run jit in a child process; only the result type, jit/preview/result, is shared (and jit's API names, from internal/jitapi)"},
	{"lsp/...", "jit jit/ir/... jit/backend jit/cpu/... jit/gpu/... cmd/...", "previews run jit in a child process, built in the user's module with the user's jit (only the events record, jit/events, is shared)"},
	{"cmd/jitlint", "lsp/...", "the command line runs the analyzers and previews without a language server"},
	{"internal/snapshot internal/jsonrpc internal/textdoc internal/richtext", "lsp/... cmd/...", "the server's parts hold nothing of the server: it calls them with explicit inputs"},
	{"internal/snapshot", "go.lsp.dev internal/jsonrpc", "a snapshot knows nothing of the protocol: the server converts what it finds"},
}

// A temporary edge is one that today's code has against the table, with
// the issue that removes it. The test allows it, says so in the doc, and
// fails once the code no longer has it, so that it is deleted here then.
type temporary struct {
	from, to string
	issue    string
}

var temporaries = []temporary{
	// None at present.
}
