package ptxsim

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// action is what an instruction asks the scheduler to do next.
type action uint8

const (
	next    action = iota // fall through
	jump                  // pc was set
	barrier               // bar.sync: wait for the block
	exit                  // ret
)

// inst is one decoded instruction.
type inst struct {
	text     string
	base     string
	guard    int // predicate slot, -1 when unguarded
	guardNeg bool
	exec     func(t *thread) action
}

// operand is a decoded source operand.
type operand struct {
	slot    int // register slot, -1 for immediates and specials
	imm     uint64
	special string // %tid.x, ...
}

// decode parses one instruction into a closure.
func (k *Kernel) decode(s string) (*inst, error) {
	in := &inst{text: s, guard: -1}
	if strings.HasPrefix(s, "@") {
		sp := strings.IndexByte(s, ' ')
		g := s[1:sp]
		if strings.HasPrefix(g, "!") {
			in.guardNeg, g = true, g[1:]
		}
		slot, err := k.reg(g)
		if err != nil {
			return nil, err
		}
		in.guard, s = slot, strings.TrimSpace(s[sp+1:])
	}
	opcode, rest, _ := strings.Cut(s, " ")
	parts := strings.Split(opcode, ".")
	in.base = parts[0]
	typ := parts[len(parts)-1]
	var args []string
	if strings.TrimSpace(rest) != "" {
		for _, a := range strings.Split(rest, ",") {
			args = append(args, strings.TrimSpace(a))
		}
	}
	want := func(n int) error {
		if len(args) != n {
			return fmt.Errorf("%s takes %d operands, got %d", opcode, n, len(args))
		}
		return nil
	}
	switch in.base {
	case "ret":
		in.exec = func(*thread) action { return exit }
		return in, nil
	case "bar":
		in.exec = func(*thread) action { return barrier }
		return in, nil
	case "bra":
		if err := want(1); err != nil {
			return nil, err
		}
		target, ok := k.labels[args[0]]
		if !ok {
			return nil, fmt.Errorf("branch to undefined label %s", args[0])
		}
		in.exec = func(t *thread) action { t.pc = target; return jump }
		return in, nil
	case "ld", "st":
		return k.decodeMem(in, parts, args)
	}
	if len(args) < 2 {
		return nil, fmt.Errorf("unknown or malformed instruction %q", opcode)
	}
	dst, err := k.reg(args[0])
	if err != nil {
		return nil, err
	}
	var src []operand
	for _, a := range args[1:] {
		o, err := k.operand(a, typ)
		if err != nil {
			return nil, err
		}
		src = append(src, o)
	}
	f, err := compute(parts, len(src))
	if err != nil {
		return nil, err
	}
	in.exec = func(t *thread) action {
		var v [3]uint64
		for i := range src {
			v[i] = t.read(&src[i])
		}
		t.regs[dst] = f(v[:len(src)])
		return next
	}
	return in, nil
}

// operand decodes a source operand; typ is the instruction's type, used to
// read decimal immediates.
func (k *Kernel) operand(a, typ string) (operand, error) {
	o := operand{slot: -1}
	switch {
	case a == "%tid.x" || a == "%ntid.x" || a == "%ctaid.x" || a == "%nctaid.x":
		o.special = a
		return o, nil
	case strings.HasPrefix(a, "%"):
		s, err := k.reg(a)
		o.slot = s
		return o, err
	case strings.HasPrefix(a, "0f") && len(a) == 10:
		v, err := strconv.ParseUint(a[2:], 16, 32)
		o.imm = v
		return o, err
	case strings.HasPrefix(a, "0d") && len(a) == 18:
		v, err := strconv.ParseUint(a[2:], 16, 64)
		o.imm = v
		return o, err
	case a == k.shared && a != "":
		o.imm = 0
		return o, nil
	}
	v, err := strconv.ParseInt(a, 10, 64)
	if err != nil {
		return o, fmt.Errorf("bad operand %q", a)
	}
	if typ == "f32" || typ == "f64" {
		return o, fmt.Errorf("decimal immediate %q in a %s instruction (use 0f/0d hex)", a, typ)
	}
	o.imm = uint64(v)
	return o, nil
}

// decodeMem decodes ld/st: ld.space.type d, [addr]; st.space.type [addr], s.
func (k *Kernel) decodeMem(in *inst, parts, args []string) (*inst, error) {
	if len(parts) != 3 || len(args) != 2 {
		return nil, fmt.Errorf("malformed %s", in.text)
	}
	space, typ := parts[1], parts[2]
	size := typeBits(typ) / 8
	if size == 0 {
		return nil, fmt.Errorf("bad memory type .%s", typ)
	}
	memArg, valArg := args[1], args[0]
	if in.base == "st" {
		memArg, valArg = args[0], args[1]
	}
	if !strings.HasPrefix(memArg, "[") || !strings.HasSuffix(memArg, "]") {
		return nil, fmt.Errorf("bad address %q", memArg)
	}
	addr := memArg[1 : len(memArg)-1]
	if space == "param" {
		idx := -1
		for i, p := range k.Params {
			if p == addr {
				idx = i
			}
		}
		if idx < 0 {
			return nil, fmt.Errorf("unknown parameter %s", addr)
		}
		dst, err := k.reg(valArg)
		if err != nil {
			return nil, err
		}
		in.exec = func(t *thread) action { t.regs[dst] = t.b.args[idx]; return next }
		return in, nil
	}
	var off int64
	if base, o, ok := strings.Cut(addr, "+"); ok {
		v, err := strconv.ParseInt(o, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("bad offset in %q", memArg)
		}
		addr, off = base, v
	}
	areg, err := k.reg(addr)
	if err != nil {
		return nil, err
	}
	vreg, err := k.reg(valArg)
	if err != nil {
		return nil, err
	}
	if space != "global" && space != "shared" {
		return nil, fmt.Errorf("unsupported state space .%s", space)
	}
	shared := space == "shared"
	load := in.base == "ld"
	in.exec = func(t *thread) action {
		a := t.regs[areg] + uint64(off)
		var mem []byte
		if shared {
			a &= 0xffffffff
			if a+uint64(size) > uint64(len(t.b.shared)) {
				panic(fmt.Errorf("shared access at %d+%d outside %d bytes (%s)", a, size, len(t.b.shared), in.text))
			}
			mem = t.b.shared[a : a+uint64(size)]
		} else {
			mem = t.b.mem.slice(a, size, in.text)
		}
		if load {
			var v uint64
			for i := size - 1; i >= 0; i-- {
				v = v<<8 | uint64(mem[i])
			}
			if typ == "s32" {
				v = uint64(int64(int32(uint32(v))))
			}
			t.regs[vreg] = v
		} else {
			v := t.regs[vreg]
			for i := 0; i < size; i++ {
				mem[i] = byte(v >> (8 * i))
			}
		}
		return next
	}
	return in, nil
}

// typeBits is the width of a PTX type suffix (0 if not a type).
func typeBits(t string) int {
	switch t {
	case "pred":
		return 1
	case "u8", "s8", "b8":
		return 8
	case "u16", "s16", "b16":
		return 16
	case "u32", "s32", "b32", "f32":
		return 32
	case "u64", "s64", "b64", "f64":
		return 64
	}
	return 0
}

// Float helpers: registers hold raw bits.
func f32(v uint64) float64  { return float64(math.Float32frombits(uint32(v))) }
func f64(v uint64) float64  { return math.Float64frombits(v) }
func pf32(x float64) uint64 { return uint64(math.Float32bits(float32(x))) }
func pf64(x float64) uint64 { return math.Float64bits(x) }
