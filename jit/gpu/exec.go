package gpu

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/jitlint/jitlint/jit/backend"
	"github.com/jitlint/jitlint/jit/ir"
	"github.com/jitlint/jitlint/jit/ir/eval"
)

// Executable is a compiled program on the GPU: its kernels are loaded and
// every intermediate buffer is allocated once (shapes are static), so a call
// uploads the arguments, launches, and downloads the results. Calls are
// serialised.
type Executable struct {
	mu     sync.Mutex
	dev    device
	funcs  map[string]kernelFunc
	prog   *program
	bufs   map[*ir.Var]uint64 // consts, kernel outputs and inputs of every program
	loops  map[step][2][]uint64
	ys     map[*scanStep][]uint64
	allocs *[]uint64 // device memory to free; also read by the GC cleanup
	mod    *module   // the loaded module, nil when there are no kernels
	detail backend.Detail
	last   time.Duration
}

// compile loads the module and allocates the program's buffers.
func compile(dev device, ptx string, prog *program) (*Executable, error) {
	x := &Executable{dev: dev, prog: prog, bufs: map[*ir.Var]uint64{}, loops: map[step][2][]uint64{},
		ys: map[*scanStep][]uint64{}, allocs: new([]uint64), funcs: map[string]kernelFunc{}}
	if len(kernelNames(ptx)) > 0 {
		m, err := dev.LoadModule(ptx)
		if err != nil {
			return nil, err
		}
		x.funcs, x.detail, x.mod = m.Funcs, backend.Detail{DriverJIT: m.JIT, Log: m.Log}, &m
	}
	allocs, mod := x.allocs, x.mod
	runtime.AddCleanup(x, func(d device) { release(d, allocs, mod) }, dev)
	for _, v := range prog.invars {
		if err := x.allocVar(v); err != nil {
			x.Close()
			return nil, err
		}
	}
	if err := x.allocProgram(prog); err != nil {
		x.Close()
		return nil, err
	}
	return x, nil
}

// Close frees the executable's device memory and unloads its module now
// (both also happen when the executable is garbage collected). The
// executable must not be used afterwards.
func (x *Executable) Close() {
	x.mu.Lock()
	defer x.mu.Unlock()
	release(x.dev, x.allocs, x.mod)
}

// release frees allocs and unloads mod, once.
func release(d device, allocs *[]uint64, mod *module) {
	for _, p := range *allocs {
		d.Free(p)
	}
	*allocs = nil
	if mod != nil && mod.Handle != nil {
		d.Unload(*mod)
		mod.Handle = nil
	}
}

func (x *Executable) alloc(a ir.Aval) (uint64, error) {
	p, err := x.dev.Alloc(byteSize(a))
	if err == nil {
		*x.allocs = append(*x.allocs, p)
	}
	return p, err
}

func (x *Executable) allocVar(v *ir.Var) error {
	p, err := x.alloc(v.Aval)
	x.bufs[v] = p
	return err
}

// allocSet allocates one buffer per variable's aval.
func (x *Executable) allocSet(vs []*ir.Var) ([]uint64, error) {
	out := make([]uint64, len(vs))
	for i, v := range vs {
		p, err := x.alloc(v.Aval)
		if err != nil {
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}

// allocProgram allocates p's constants (uploaded) and kernel outputs, and
// recursively its sub-programs' and loops' buffers.
func (x *Executable) allocProgram(p *program) error {
	for v, b := range p.consts {
		if err := x.allocVar(v); err != nil {
			return err
		}
		data, err := hostBytes(b)
		if err != nil {
			return err
		}
		if err := x.dev.Upload(x.bufs[v], data); err != nil {
			return err
		}
	}
	for _, v := range p.owned {
		if err := x.allocVar(v); err != nil {
			return err
		}
	}
	for _, s := range p.steps {
		var subs []*program
		switch s := s.(type) {
		case *callStep:
			subs = []*program{s.body}
		case *condStep:
			subs = s.branches
		case *whileStep:
			subs = []*program{s.cond, s.body}
			if err := x.allocLoop(s, s.outs); err != nil {
				return err
			}
		case *scanStep:
			subs = []*program{s.body}
			if err := x.allocLoop(s, s.carryOuts); err != nil {
				return err
			}
			ys, err := x.allocSet(s.ysOuts)
			if err != nil {
				return err
			}
			x.ys[s] = ys
		}
		for _, sp := range subs {
			if err := x.allocProgram(sp); err != nil {
				return err
			}
		}
	}
	return nil
}

// allocLoop allocates the two carry sets a loop alternates between.
func (x *Executable) allocLoop(s step, carry []*ir.Var) error {
	a, err := x.allocSet(carry)
	if err != nil {
		return err
	}
	b, err := x.allocSet(carry)
	if err != nil {
		return err
	}
	x.loops[s] = [2][]uint64{a, b}
	return nil
}

// CompileDetail reports the driver's JIT wall time and info log.
func (x *Executable) CompileDetail() backend.Detail { return x.detail }

// LastRunTime is the device time of the last Execute, measured with CUDA
// events around its launches (uploads and downloads excluded).
func (x *Executable) LastRunTime() time.Duration {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.last
}

// Execute uploads args, runs the program and downloads the results; when it
// returns the stream is synchronised (results are ready).
func (x *Executable) Execute(args []*ir.Buffer) ([]*ir.Buffer, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	p := x.prog
	if len(args) != len(p.invars) {
		return nil, fmt.Errorf("gpu: program takes %d arguments, got %d", len(p.invars), len(args))
	}
	in := make([]uint64, len(args))
	for i, a := range args {
		if !a.Aval().TypeMatch(p.invars[i].Aval) {
			return nil, fmt.Errorf("gpu: argument %d is %v, the program was compiled for %v", i, a.Aval(), p.invars[i].Aval)
		}
		data, err := hostBytes(a)
		if err != nil {
			return nil, fmt.Errorf("gpu: argument %d: %w", i, err)
		}
		in[i] = x.bufs[p.invars[i]]
		if err := x.dev.Upload(in[i], data); err != nil {
			return nil, err
		}
	}
	stop, err := x.dev.Timer()
	if err != nil {
		return nil, err
	}
	outs, err := x.run(p, in)
	if err != nil {
		return nil, err
	}
	if x.last, err = stop(); err != nil {
		return nil, err
	}
	res := make([]*ir.Buffer, len(outs))
	for i, ptr := range outs {
		if res[i], err = x.download(p.outvars[i].Aval, ptr); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// download reads a device buffer of type a back into a host buffer.
func (x *Executable) download(a ir.Aval, ptr uint64) (*ir.Buffer, error) {
	b := ir.NewBuffer(a.DType, a.Shape)
	dst, err := hostBytes(b)
	if err != nil {
		return nil, err
	}
	return b, x.dev.Download(dst, ptr)
}

// run executes p with its inputs at the given device addresses and returns
// the addresses of its outputs.
func (x *Executable) run(p *program, inputs []uint64) ([]uint64, error) {
	env := make(map[*ir.Var]uint64, len(inputs))
	for i, v := range p.invars {
		env[v] = inputs[i]
	}
	at := func(v *ir.Var) uint64 {
		if ptr, ok := env[v]; ok {
			return ptr
		}
		return x.bufs[v]
	}
	ats := func(vs []*ir.Var) []uint64 {
		out := make([]uint64, len(vs))
		for i, v := range vs {
			out[i] = at(v)
		}
		return out
	}
	bind := func(vs []*ir.Var, ptrs []uint64) {
		for i, v := range vs {
			env[v] = ptrs[i]
		}
	}
	for _, s := range p.steps {
		switch s := s.(type) {
		case launchStep:
			if err := x.dev.Launch(x.funcs[s.kernel], uint32(s.grid), blockSize, ats(s.args)); err != nil {
				return nil, fmt.Errorf("launching %s: %w", s.kernel, err)
			}
		case aliasStep:
			env[s.dst] = at(s.src)
		case hostStep:
			if err := x.runOnHost(s, ats(s.args)); err != nil {
				return nil, err
			}
		case *callStep:
			outs, err := x.run(s.body, ats(s.ins))
			if err != nil {
				return nil, err
			}
			bind(s.outs, outs)
		case *condStep:
			i, err := x.readInt(at(s.index), s.index.Aval.DType)
			if err != nil {
				return nil, err
			}
			i = min(max(i, 0), len(s.branches)-1) // lax.cond clamps the index
			outs, err := x.run(s.branches[i], ats(s.ops))
			if err != nil {
				return nil, err
			}
			bind(s.outs, outs)
		case *whileStep:
			outs, err := x.runWhile(s, ats(s.cconsts), ats(s.bconsts), ats(s.carry))
			if err != nil {
				return nil, err
			}
			bind(s.outs, outs)
		case *scanStep:
			carry, err := x.runScan(s, ats(s.consts), ats(s.init), ats(s.xs))
			if err != nil {
				return nil, err
			}
			bind(s.carryOuts, carry)
			bind(s.ysOuts, x.ys[s])
		}
	}
	return ats(p.outvars), nil
}

// runOnHost downloads a host step's operands and applies its equation with
// the evaluator.
func (x *Executable) runOnHost(s hostStep, ptrs []uint64) error {
	args := make([]*ir.Buffer, len(ptrs))
	for i, ptr := range ptrs {
		var err error
		if args[i], err = x.download(s.args[i].Aval, ptr); err != nil {
			return err
		}
	}
	if _, err := eval.Apply(s.eqn.Prim, s.eqn.Params, args); err != nil {
		return fmt.Errorf("gpu: %w", err)
	}
	return nil
}

// readInt reads a scalar int32 or bool back from the device.
func (x *Executable) readInt(ptr uint64, t ir.DType) (int, error) {
	if t == ir.Bool {
		var b [1]byte
		err := x.dev.Download(b[:], ptr)
		return int(b[0]), err
	}
	var b [4]byte
	err := x.dev.Download(b[:], ptr)
	return int(int32(binary.LittleEndian.Uint32(b[:]))), err
}

// copyInto copies each source buffer into the matching destination.
func (x *Executable) copyInto(dst, src []uint64, vars []*ir.Var) error {
	for i := range dst {
		if err := x.dev.CopyD(dst[i], src[i], byteSize(vars[i].Aval)); err != nil {
			return err
		}
	}
	return nil
}

// runWhile evaluates the predicate on the host each iteration; the carry
// alternates between two buffer sets so the body never overwrites its input.
func (x *Executable) runWhile(s *whileStep, cconsts, bconsts, carry []uint64) ([]uint64, error) {
	sets := x.loops[s]
	for iter := 0; ; iter++ {
		pred, err := x.run(s.cond, append(append([]uint64(nil), cconsts...), carry...))
		if err != nil {
			return nil, err
		}
		ok, err := x.readInt(pred[0], ir.Bool)
		if err != nil || ok == 0 {
			return carry, err
		}
		outs, err := x.run(s.body, append(append([]uint64(nil), bconsts...), carry...))
		if err != nil {
			return nil, err
		}
		next := sets[iter%2]
		if err := x.copyInto(next, outs, s.outs); err != nil {
			return nil, err
		}
		carry = next
	}
}

// runScan runs the body length times: xs are sliced by address, ys copied
// into the stacked outputs at their row.
func (x *Executable) runScan(s *scanStep, consts, carry, xs []uint64) ([]uint64, error) {
	sets := x.loops[s]
	ys := x.ys[s]
	for i := 0; i < s.length; i++ {
		row := i
		if s.reverse {
			row = s.length - 1 - i
		}
		args := append(append([]uint64(nil), consts...), carry...)
		for j, v := range s.xs {
			args = append(args, xs[j]+uint64(row*rowBytes(v.Aval)))
		}
		outs, err := x.run(s.body, args)
		if err != nil {
			return nil, err
		}
		next := sets[i%2]
		if err := x.copyInto(next, outs[:len(next)], s.carryOuts); err != nil {
			return nil, err
		}
		carry = next
		for j, v := range s.ysOuts {
			if n := rowBytes(v.Aval); n > 0 {
				if err := x.dev.CopyD(ys[j]+uint64(row*n), outs[len(next)+j], n); err != nil {
					return nil, err
				}
			}
		}
	}
	return carry, nil
}

// rowBytes is the size of one slice along the leading axis.
func rowBytes(a ir.Aval) int {
	if len(a.Shape) == 0 || a.Shape[0] == 0 {
		return 0
	}
	return a.Size() / a.Shape[0] * a.DType.ItemSize()
}
