package jit

// Option configures Jit, MakeJaxpr, Vmap, Grad and ValueAndGrad.
type Option func(*options)

type options struct {
	static  map[int]bool
	name    string
	backend string
	inAxes  []int // Vmap
	outAxes []int // Vmap
	argnums []int // Grad, ValueAndGrad
}

// StaticArgnums marks positional arguments as static: their values are part
// of the cache key (each new value traces and compiles again) and they are
// passed to the function as plain Go values. Static values must be comparable.
func StaticArgnums(i ...int) Option {
	return func(o *options) {
		for _, n := range i {
			o.static[n] = true
		}
	}
}

// Name sets the function's name in jaxprs, logs and messages (default: the
// Go function's name).
func Name(name string) Option { return func(o *options) { o.name = name } }

// Backend pins the function to a backend ("cpu" or "gpu") instead of
// DefaultBackend().
func Backend(name string) Option { return func(o *options) { o.backend = name } }

func buildOptions(opts []Option) options {
	o := options{static: map[int]bool{}}
	for _, f := range opts {
		f(&o)
	}
	return o
}
