package previewer

import (
	"fmt"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/jitlint/jitlint/internal/jitapi"
)

// Mismatch says why args (from what: "//jit:args", or a signature given
// to a command) do not fit the parameters of the function name with type
// sig and static arguments static (StaticArgnums): the index of the
// argument at fault (-1 when the count is wrong) and a message; "" when
// they fit.
func Mismatch(name string, sig *types.Signature, static []int, args []Arg, what string) (int, string) {
	params := sig.Params()
	if len(args) != params.Len() {
		example := ExampleArgs(params, static)
		if strings.HasPrefix(what, "//") {
			example = what + " " + example
		} else {
			example = strconv.Quote(example)
		}
		return -1, fmt.Sprintf("%s gives %d argument(s) but %s has %d parameter(s); e.g. %s",
			what, len(args), name, params.Len(), example)
	}
	for i, a := range args {
		if msg := checkArg(a, params.At(i).Type(), slices.Contains(static, i)); msg != "" {
			return i, fmt.Sprintf("%s argument %d for parameter %s: %s", what, i+1, params.At(i).Name(), msg)
		}
	}
	return 0, ""
}

// ExampleArgs suggests directive arguments for a parameter list with the
// static arguments static.
func ExampleArgs(params *types.Tuple, static []int) string {
	parts := make([]string, params.Len())
	for i := range params.Len() {
		t := params.At(i).Type()
		switch {
		case jitapi.IsArray(t) && !slices.Contains(static, i):
			parts[i] = "f32[8]"
		case isBasic(t, types.IsInteger):
			parts[i] = "3"
		case isBasic(t, types.IsFloat):
			parts[i] = "0.5"
		case isBasic(t, types.IsBoolean):
			parts[i] = "true"
		case isBasic(t, types.IsString):
			parts[i] = `"name"`
		default:
			parts[i] = "{...}"
		}
	}
	return strings.Join(parts, ", ")
}

func isBasic(t types.Type, info types.BasicInfo) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&info != 0
}

// checkArg says what is wrong with directive argument a for a parameter of
// type t, or "" if it fits.
func checkArg(a Arg, t types.Type, static bool) string {
	switch a.Kind {
	case ArgArray:
		if !jitapi.IsArray(t) {
			return fmt.Sprintf("%s is an array but the parameter has type %s", a, t)
		}
		if static {
			return "the parameter is static (StaticArgnums): give a Go value, not an array"
		}
		return ""
	case ArgLiteral:
		b, ok := t.Underlying().(*types.Basic)
		if !ok {
			return fmt.Sprintf("%s is a Go literal but the parameter has type %s", a.Lit, t)
		}
		switch {
		case a.Lit == "true" || a.Lit == "false":
			if b.Info()&types.IsBoolean == 0 {
				return fmt.Sprintf("%s is a bool but the parameter has type %s", a.Lit, t)
			}
		case strings.HasPrefix(a.Lit, `"`) || strings.HasPrefix(a.Lit, "`"):
			if b.Info()&types.IsString == 0 {
				return fmt.Sprintf("%s is a string but the parameter has type %s", a.Lit, t)
			}
		case b.Info()&types.IsNumeric == 0:
			return fmt.Sprintf("%s is a number but the parameter has type %s", a.Lit, t)
		}
		return ""
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i, e := range a.Elems {
			var ft types.Type
			if k := a.Keys[i]; k != "" {
				for j := range u.NumFields() {
					if u.Field(j).Name() == k {
						ft = u.Field(j).Type()
					}
				}
				if ft == nil {
					return fmt.Sprintf("%s has no field %s", t, k)
				}
			} else {
				if len(a.Elems) != u.NumFields() {
					return fmt.Sprintf("{...} for %s needs %d values or field names", t, u.NumFields())
				}
				ft = u.Field(i).Type()
			}
			if msg := checkArg(e, ft, false); msg != "" {
				return msg
			}
		}
		return ""
	case *types.Slice, *types.Array:
		elem := u.(interface{ Elem() types.Type }).Elem()
		for i, e := range a.Elems {
			if a.Keys[i] != "" {
				return fmt.Sprintf("%s is a slice or array: its elements have no names", t)
			}
			if msg := checkArg(e, elem, false); msg != "" {
				return msg
			}
		}
		return ""
	case *types.Map:
		if !isBasic(u.Key(), types.IsString) {
			return fmt.Sprintf("%s: only maps with string keys are pytrees", t)
		}
		for i, e := range a.Elems {
			if !strings.HasPrefix(a.Keys[i], `"`) {
				return `map elements need quoted keys, e.g. {"w": f32[4]}`
			}
			if msg := checkArg(e, u.Elem(), false); msg != "" {
				return msg
			}
		}
		return ""
	}
	return fmt.Sprintf("{...} is a pytree but the parameter has type %s", t)
}
