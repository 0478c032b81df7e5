package traced

import (
	"go/constant"
	"strings"
)

// The string functions of the standard library, computed on constant
// arguments: a program that splits a constant text into words (tokens of
// a prompt, lines of a sample) loops as many times as there are words.

// stringFuncs compute the functions of strings whose arguments are
// constant strings (and ints): a string, or the elements of a []string.
var stringFuncs = map[string]func(ss []string, ns []int64) (string, []string, bool){
	"strings.Repeat": func(ss []string, ns []int64) (string, []string, bool) {
		return strings.Repeat(ss[0], int(min(ns[0], 1<<16))), nil, true
	},
	"strings.ToLower":   func(ss []string, _ []int64) (string, []string, bool) { return strings.ToLower(ss[0]), nil, true },
	"strings.ToUpper":   func(ss []string, _ []int64) (string, []string, bool) { return strings.ToUpper(ss[0]), nil, true },
	"strings.TrimSpace": func(ss []string, _ []int64) (string, []string, bool) { return strings.TrimSpace(ss[0]), nil, true },
	"strings.Fields":    func(ss []string, _ []int64) (string, []string, bool) { return "", strings.Fields(ss[0]), false },
	"strings.Split":     func(ss []string, _ []int64) (string, []string, bool) { return "", strings.Split(ss[0], ss[1]), false },
}

// stringCall computes a string function on constant arguments, or
// returns nil.
func stringCall(name string, args []*Expr) *Expr {
	impl := stringFuncs[name]
	if impl == nil {
		return nil
	}
	var ss []string
	var ns []int64
	for _, a := range args {
		v, ok := a.isConst()
		if !ok {
			return nil
		}
		switch v.Kind() {
		case constant.String:
			ss = append(ss, constant.StringVal(v))
		case constant.Int:
			n, _ := constant.Int64Val(v)
			ns = append(ns, n)
		default:
			return nil
		}
	}
	wantStrings := map[string]int{"strings.Repeat": 1, "strings.Split": 2}
	if n, ok := wantStrings[name]; ok && len(ss) != n || name == "strings.Repeat" && len(ns) != 1 || len(ss) == 0 {
		return nil
	}
	s, parts, isString := impl(ss, ns)
	if isString {
		return constOfString(s)
	}
	if len(parts) > maxElems {
		return seq(intConst(int64(len(parts))))
	}
	elems := make([]*Expr, len(parts))
	for i, p := range parts {
		elems[i] = constOfString(p)
	}
	return seq(intConst(int64(len(parts))), elems...)
}
