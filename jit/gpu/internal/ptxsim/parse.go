// Package ptxsim parses, checks and interprets the subset of PTX that the gpu
// backend emits. It exists because the development machines have no GPU and
// no ptxas: Parse is the well-formedness check (balanced braces, every
// register declared, every label defined, every instruction known), and
// Launch runs kernels on simulated memory so that generated code and its
// math can be tested bit for bit against Go.
package ptxsim

import (
	"fmt"
	"strconv"
	"strings"
)

// Module is a parsed PTX module.
type Module struct {
	Version, Target string
	Kernels         map[string]*Kernel
}

// Kernel is one parsed .entry function.
type Kernel struct {
	Name   string
	Params []string
	Shared int // bytes of .shared memory
	insts  []*inst
	labels map[string]int
	// regBase maps a register prefix (%f, %rd, ...) to its first slot; regN
	// to its declared count.
	regBase, regN map[string]int
	nregs         int
	shared        string // the .shared variable's name
}

// Parse parses and checks a module; errors name the line.
func Parse(src string) (*Module, error) {
	m := &Module{Kernels: map[string]*Kernel{}}
	lines := strings.Split(src, "\n")
	var k *Kernel
	depth := 0
	var pending []string // raw instructions of the current kernel
	var pendingLine []int
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		if j := strings.Index(line, "//"); j >= 0 {
			line = strings.TrimSpace(line[:j])
		}
		if line == "" {
			continue
		}
		errf := func(format string, a ...any) error {
			return fmt.Errorf("ptx line %d (%q): %s", i+1, line, fmt.Sprintf(format, a...))
		}
		switch {
		case strings.HasPrefix(line, ".version "):
			m.Version = strings.TrimSpace(line[len(".version "):])
		case strings.HasPrefix(line, ".target "):
			m.Target = strings.TrimSpace(line[len(".target "):])
		case strings.HasPrefix(line, ".address_size"):
		case strings.HasPrefix(line, ".visible .entry "):
			if depth != 0 {
				return nil, errf(".entry inside a function body")
			}
			name := strings.TrimSuffix(strings.TrimSpace(line[len(".visible .entry "):]), "(")
			k = &Kernel{Name: name, labels: map[string]int{}, regBase: map[string]int{}, regN: map[string]int{}}
			for i++; i < len(lines); i++ {
				p := strings.TrimSpace(lines[i])
				if p == ")" {
					break
				}
				f := strings.Fields(strings.TrimSuffix(p, ","))
				if len(f) != 3 || f[0] != ".param" || f[1] != ".u64" {
					return nil, fmt.Errorf("ptx line %d: bad parameter %q", i+1, p)
				}
				k.Params = append(k.Params, f[2])
			}
			if _, dup := m.Kernels[name]; dup {
				return nil, errf("kernel %s defined twice", name)
			}
			m.Kernels[name] = k
			pending, pendingLine = nil, nil
		case line == "{":
			depth++
		case line == "}":
			depth--
			if depth < 0 {
				return nil, errf("unbalanced }")
			}
			if depth == 0 && k != nil {
				if err := k.build(pending, pendingLine); err != nil {
					return nil, err
				}
				k = nil
			}
		case k == nil || depth == 0:
			return nil, errf("statement outside a kernel body")
		case strings.HasPrefix(line, ".reg "):
			f := strings.Fields(strings.TrimSuffix(line, ";"))
			if len(f) != 3 {
				return nil, errf("bad .reg")
			}
			lt, gt := strings.IndexByte(f[2], '<'), strings.IndexByte(f[2], '>')
			if lt < 0 || gt < lt {
				return nil, errf("bad .reg")
			}
			n, err := strconv.Atoi(f[2][lt+1 : gt])
			if err != nil {
				return nil, errf("bad .reg count")
			}
			prefix := f[2][:lt]
			if want := regType[prefix]; want != f[1] {
				return nil, errf("register %s declared %s, want %s", prefix, f[1], want)
			}
			k.regBase[prefix] = k.nregs
			k.regN[prefix] = n
			k.nregs += n
		case strings.HasPrefix(line, ".shared "):
			f := strings.Fields(strings.TrimSuffix(line, ";"))
			v := f[len(f)-1]
			lb := strings.IndexByte(v, '[')
			n, err := strconv.Atoi(strings.TrimSuffix(v[lb+1:], "]"))
			if lb < 0 || err != nil {
				return nil, errf("bad .shared")
			}
			k.shared, k.Shared = v[:lb], n
		case strings.HasSuffix(line, ":"):
			name := strings.TrimSuffix(line, ":")
			if _, dup := k.labels[name]; dup {
				return nil, errf("label %s defined twice", name)
			}
			k.labels[name] = len(pending)
		default:
			if !strings.HasSuffix(line, ";") {
				return nil, errf("instruction without ';'")
			}
			pending = append(pending, strings.TrimSuffix(line, ";"))
			pendingLine = append(pendingLine, i+1)
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("ptx: unbalanced braces at end of module (depth %d)", depth)
	}
	if m.Version == "" || m.Target == "" {
		return nil, fmt.Errorf("ptx: missing .version or .target")
	}
	return m, nil
}

// regType is the declared type each register prefix must have.
var regType = map[string]string{"%p": ".pred", "%r": ".b32", "%rd": ".b64", "%f": ".f32", "%fd": ".f64"}

// build decodes a kernel's instructions.
func (k *Kernel) build(raw []string, lines []int) error {
	for i, s := range raw {
		in, err := k.decode(s)
		if err != nil {
			return fmt.Errorf("ptx line %d (%q) in %s: %v", lines[i], s, k.Name, err)
		}
		k.insts = append(k.insts, in)
	}
	if len(k.insts) == 0 || k.insts[len(k.insts)-1].base != "ret" {
		return fmt.Errorf("ptx: kernel %s does not end with ret", k.Name)
	}
	return nil
}

// reg resolves a register name to its slot, checking the declaration.
func (k *Kernel) reg(name string) (int, error) {
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	n, err := strconv.Atoi(name[i:])
	if err != nil {
		return 0, fmt.Errorf("bad register %q", name)
	}
	prefix := name[:i]
	count, ok := k.regN[prefix]
	if !ok {
		return 0, fmt.Errorf("register %s used but %s<N> is not declared", name, prefix)
	}
	if n >= count {
		return 0, fmt.Errorf("register %s out of the declared range %s<%d>", name, prefix, count)
	}
	return k.regBase[prefix] + n, nil
}
