package ptxsim

import (
	"fmt"
	"sort"
)

// Memory is simulated global memory: allocations at distinct addresses.
type Memory struct {
	allocs []allocation // sorted by base
	next   uint64
}

type allocation struct {
	base uint64
	data []byte
}

// NewMemory returns an empty memory.
func NewMemory() *Memory { return &Memory{next: 1 << 32} }

// Alloc reserves n zeroed bytes and returns their address.
func (m *Memory) Alloc(n int) uint64 {
	base := m.next
	m.next += (uint64(n) + 511) &^ 255
	m.allocs = append(m.allocs, allocation{base, make([]byte, n)})
	return base
}

// Free releases an allocation; unknown addresses are ignored.
func (m *Memory) Free(addr uint64) {
	for i, a := range m.allocs {
		if a.base == addr {
			m.allocs = append(m.allocs[:i], m.allocs[i+1:]...)
			return
		}
	}
}

// Bytes returns n bytes at addr, which must lie inside one allocation.
func (m *Memory) Bytes(addr uint64, n int) ([]byte, error) {
	i := sort.Search(len(m.allocs), func(i int) bool { return m.allocs[i].base > addr }) - 1
	if i < 0 || addr+uint64(n) > m.allocs[i].base+uint64(len(m.allocs[i].data)) {
		return nil, fmt.Errorf("address %#x+%d is outside every allocation", addr, n)
	}
	off := addr - m.allocs[i].base
	return m.allocs[i].data[off : off+uint64(n)], nil
}

// slice is Bytes for the interpreter: out-of-bounds accesses abort the launch.
func (m *Memory) slice(addr uint64, n int, inst string) []byte {
	b, err := m.Bytes(addr, n)
	if err != nil {
		panic(fmt.Errorf("%v (%s)", err, inst))
	}
	return b
}

// thread is one thread's state.
type thread struct {
	k        *Kernel
	b        *block
	regs     []uint64
	pc       int
	tid      uint64
	finished bool
}

// block is the state shared by a thread block.
type block struct {
	args          []uint64
	mem           *Memory
	shared        []byte
	ctaid, nctaid uint64
	ntid          uint64
}

// read returns an operand's value.
func (t *thread) read(o *operand) uint64 {
	switch {
	case o.slot >= 0:
		return t.regs[o.slot]
	case o.special != "":
		switch o.special {
		case "%tid.x":
			return t.tid
		case "%ntid.x":
			return t.b.ntid
		case "%ctaid.x":
			return t.b.ctaid
		}
		return t.b.nctaid
	}
	return o.imm
}

// Launch runs kernel name with grid blocks of block threads; args are the
// kernel's .u64 parameters. Blocks run one after another; the threads of a
// block run one at a time up to each bar.sync (threads that have exited do
// not hold a barrier up). Faults such as out-of-bounds accesses are returned
// as errors.
func (m *Module) Launch(mem *Memory, name string, grid, blockDim int, args []uint64) (err error) {
	k, ok := m.Kernels[name]
	if !ok {
		return fmt.Errorf("ptxsim: no kernel %s", name)
	}
	if len(args) != len(k.Params) {
		return fmt.Errorf("ptxsim: kernel %s takes %d arguments, got %d", name, len(k.Params), len(args))
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("ptxsim: kernel %s: %v", name, r)
		}
	}()
	regs := make([]uint64, blockDim*k.nregs)
	threads := make([]thread, blockDim)
	for c := 0; c < grid; c++ {
		b := &block{args: args, mem: mem, shared: make([]byte, k.Shared), ctaid: uint64(c), nctaid: uint64(grid), ntid: uint64(blockDim)}
		clear(regs)
		for i := range threads {
			threads[i] = thread{k: k, b: b, regs: regs[i*k.nregs : (i+1)*k.nregs], tid: uint64(i)}
		}
		runBlock(threads)
	}
	return nil
}

// runBlock runs each thread to its next barrier or its end, until all end.
func runBlock(threads []thread) {
	for {
		live := 0
		for i := range threads {
			t := &threads[i]
			if t.finished {
				continue
			}
			t.run()
			if !t.finished {
				live++
			}
		}
		if live == 0 {
			return
		}
	}
}

// run executes until a barrier or ret.
func (t *thread) run() {
	insts := t.k.insts
	for {
		in := insts[t.pc]
		if in.guard >= 0 && (t.regs[in.guard]&1 == 1) == in.guardNeg {
			t.pc++
			continue
		}
		switch in.exec(t) {
		case next:
			t.pc++
		case barrier:
			t.pc++
			return
		case exit:
			t.finished = true
			t.pc = -1
			return
		}
	}
}
