package main

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// A kernel's loop body is written with Y0-Y15 as virtual registers, each
// write starting a new value; allocate maps the values of one group of four
// lanes onto eight physical registers, so that two groups fit in the
// sixteen and their instructions can be interleaved (two independent
// dependency chains per iteration keep the FMA units busy).

var regRE = regexp.MustCompile(`^([XY])([0-9]|1[0-5])$`)

// instr is a parsed instruction: mnemonic and operands (Go order, the
// destination last).
type instr struct {
	op   string
	args []string
}

func parse(line string) instr {
	op, rest, _ := strings.Cut(line, " ")
	in := instr{op: op}
	if rest != "" {
		in.args = strings.Split(rest, ", ")
	}
	return in
}

func (in instr) String() string {
	if len(in.args) == 0 {
		return in.op
	}
	return in.op + " " + strings.Join(in.args, ", ")
}

// dest returns the index of the register operand the instruction writes
// (-1: none) and whether it also reads it (FMA).
func (in instr) dest() (int, bool) {
	n := len(in.args) - 1
	if in.op == "USE" || n < 0 || !regRE.MatchString(in.args[n]) {
		return -1, false
	}
	return n, strings.HasPrefix(in.op, "VFMADD") || strings.HasPrefix(in.op, "VFNMADD")
}

// allocate renames the virtual registers of lines onto pool (physical
// register numbers) and returns the renamed lines; it panics when the pool
// is too small.
func allocate(lines []string, pool []int) []instr {
	ins := make([]instr, len(lines))
	// SSA values: val[i][j] is the value of operand j of instruction i.
	val := make([][]int, len(lines))
	cur := map[string]int{}
	lastUse := map[int]int{}
	nvals := 0
	for i, l := range lines {
		ins[i] = parse(l)
		d, rmw := ins[i].dest()
		val[i] = make([]int, len(ins[i].args))
		for j, a := range ins[i].args {
			m := regRE.FindStringSubmatch(a)
			if m == nil {
				val[i][j] = -1
				continue
			}
			if j == d && !rmw {
				val[i][j] = nvals
				cur[m[2]] = nvals
				lastUse[nvals] = i
				nvals++
				continue
			}
			v, ok := cur[m[2]]
			if !ok {
				panic(fmt.Sprintf("asmgen: %q reads %s before any write", l, a))
			}
			val[i][j] = v
			lastUse[v] = i
		}
	}
	free := append([]int(nil), pool...)
	home := map[int]int{} // value → its register (kept after it dies)
	live := map[int]bool{}
	release := func(v int) {
		if live[v] {
			delete(live, v)
			free = append(free, home[v])
		}
	}
	for i := range ins {
		d, rmw := ins[i].dest()
		// Sources read for the last time free their registers first (an
		// instruction reads its sources before writing its destination).
		for j, v := range val[i] {
			if v >= 0 && (j != d || rmw) && lastUse[v] == i {
				release(v)
			}
		}
		sort.Ints(free)
		if d >= 0 && !rmw {
			if len(free) == 0 {
				panic(fmt.Sprintf("asmgen: out of registers at %q", lines[i]))
			}
			home[val[i][d]], live[val[i][d]] = free[0], true
			free = free[1:]
		}
		for j, v := range val[i] {
			if v >= 0 {
				ins[i].args[j] = fmt.Sprintf("%s%d", ins[i].args[j][:1], home[v])
			}
		}
		// A value written but never read frees its register at once.
		if d >= 0 && lastUse[val[i][d]] == i {
			release(val[i][d])
		}
	}
	return ins
}
