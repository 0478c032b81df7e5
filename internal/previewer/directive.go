package previewer

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// The //jit:args directive gives the input signature a preview traces with.
// Grammar (whitespace between tokens is ignored):
//
//	directive := "//jit:args" [ arg { "," arg } ]
//	arg       := array | literal | tree
//	array     := dtype "[" [ int { "," int } ] "]"    f32[1000000], f32[4,4], f32[] (a scalar)
//	dtype     := "f32" | "f64" | "bf16" | "f16" | "i32" | "i64" | "bool"
//	literal   := ["-"] int | ["-"] float | string | "true" | "false"   (a static value, as in Go)
//	tree      := "{" [ elem { "," elem } ] "}"        a pytree: struct, slice, array or map
//	elem      := [ key ":" ] arg                        key: a field name or a quoted map key
//
// One arg per parameter of the function, in order.

// ArgKind classifies a directive argument.
type ArgKind int

// The kinds of directive arguments.
const (
	ArgArray   ArgKind = iota // an array: its dtype and shape
	ArgLiteral                // a Go literal: a static value
	ArgTree                   // a pytree: a struct, slice, array or map of arguments
)

// Arg is one parsed directive argument.
type Arg struct {
	Kind  ArgKind
	Col   int      // byte offset of the argument in the directive text
	DType string   // ArgArray: the short dtype name
	Dims  []int    // ArgArray
	Lit   string   // ArgLiteral: Go source of the literal
	Keys  []string // ArgTree: element keys ("" when positional), parallel to Elems
	Elems []Arg
}

// String formats the argument back in directive syntax.
func (a Arg) String() string {
	switch a.Kind {
	case ArgArray:
		ds := make([]string, len(a.Dims))
		for i, d := range a.Dims {
			ds[i] = strconv.Itoa(d)
		}
		return a.DType + "[" + strings.Join(ds, ",") + "]"
	case ArgLiteral:
		return a.Lit
	}
	parts := make([]string, len(a.Elems))
	for i, e := range a.Elems {
		parts[i] = e.String()
		if a.Keys[i] != "" {
			parts[i] = a.Keys[i] + ": " + parts[i]
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// SyntaxError is a malformed directive, with the byte offset (within
// the directive's argument text) where parsing failed.
type SyntaxError struct {
	Col int
	Msg string
}

func (e *SyntaxError) Error() string { return e.Msg }

// dtypeNames maps directive dtype names to jit's exported DType values.
var dtypeNames = map[string]string{
	"f32": "Float32", "f64": "Float64", "bf16": "BFloat16", "f16": "Float16",
	"i32": "Int32", "i64": "Int64", "bool": "Bool",
}

// ParseArgs parses the text after "//jit:args".
func ParseArgs(text string) ([]Arg, error) {
	p := &dirParser{src: text}
	p.skipSpace()
	var args []Arg
	if p.pos == len(p.src) {
		return nil, nil
	}
	for {
		a, err := p.arg()
		if err != nil {
			return nil, err
		}
		args = append(args, a)
		p.skipSpace()
		if p.pos == len(p.src) {
			return args, nil
		}
		if !p.eat(',') {
			return nil, p.errorf("expected ',' between arguments, found %q", p.rest())
		}
	}
}

type dirParser struct {
	src string
	pos int
}

func (p *dirParser) errorf(format string, args ...any) error {
	return &SyntaxError{Col: p.pos, Msg: "malformed //jit:args directive: " + fmt.Sprintf(format, args...) +
		"; expected e.g. //jit:args f32[1000000] or //jit:args 3, f32[4] or //jit:args {W: f32[4,4], B: f32[4]}"}
}

func (p *dirParser) rest() string {
	r := p.src[p.pos:]
	if len(r) > 12 {
		r = r[:12] + "…"
	}
	return r
}

func (p *dirParser) skipSpace() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

func (p *dirParser) eat(c byte) bool {
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

func (p *dirParser) ident() string {
	start := p.pos
	for p.pos < len(p.src) {
		r := rune(p.src[p.pos])
		if r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			break
		}
		p.pos++
	}
	return p.src[start:p.pos]
}

func (p *dirParser) arg() (Arg, error) {
	p.skipSpace()
	start := p.pos
	if p.pos == len(p.src) {
		return Arg{}, p.errorf("missing argument at the end")
	}
	c := p.src[p.pos]
	switch {
	case c == '{':
		return p.tree()
	case c == '"' || c == '`':
		return p.str()
	case c == '-' || c == '.' || (c >= '0' && c <= '9'):
		return p.number()
	case c == '_' || unicode.IsLetter(rune(c)):
		id := p.ident()
		if id == "true" || id == "false" {
			return Arg{Kind: ArgLiteral, Col: start, Lit: id}, nil
		}
		if _, ok := dtypeNames[id]; !ok {
			p.pos = start
			return Arg{}, p.errorf("unknown dtype %q (use f32, f64, bf16, f16, i32, i64 or bool)", id)
		}
		if !p.eat('[') {
			return Arg{}, p.errorf("expected '[' after dtype %s (a scalar is %s[])", id, id)
		}
		a := Arg{Kind: ArgArray, Col: start, DType: id, Dims: []int{}}
		if p.eat(']') {
			return a, nil
		}
		for {
			p.skipSpace()
			ds := p.pos
			for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' || p.pos < len(p.src) && p.src[p.pos] == '_' {
				p.pos++
			}
			d, err := strconv.ParseInt(strings.ReplaceAll(p.src[ds:p.pos], "_", ""), 10, 32)
			if err != nil || p.pos == ds {
				p.pos = ds
				return Arg{}, p.errorf("expected a non-negative dimension, found %q", p.rest())
			}
			a.Dims = append(a.Dims, int(d))
			if p.eat(']') {
				return a, nil
			}
			if !p.eat(',') {
				return Arg{}, p.errorf("expected ',' or ']' in the shape of %s", id)
			}
		}
	}
	return Arg{}, p.errorf("unexpected %q", p.rest())
}

func (p *dirParser) number() (Arg, error) {
	start := p.pos
	if p.src[p.pos] == '-' {
		p.pos++
	}
	for p.pos < len(p.src) && strings.IndexByte("0123456789._eExXabcdefABCDEF+-", p.src[p.pos]) >= 0 {
		if (p.src[p.pos] == '+' || p.src[p.pos] == '-') && !strings.ContainsAny(p.src[p.pos-1:p.pos], "eE") {
			break
		}
		p.pos++
	}
	lit := p.src[start:p.pos]
	body := strings.TrimPrefix(lit, "-")
	if _, err := strconv.ParseInt(body, 0, 64); err != nil {
		if _, err := strconv.ParseFloat(body, 64); err != nil {
			p.pos = start
			return Arg{}, p.errorf("%q is not a Go number", lit)
		}
	}
	return Arg{Kind: ArgLiteral, Col: start, Lit: lit}, nil
}

func (p *dirParser) str() (Arg, error) {
	start := p.pos
	q := p.src[p.pos]
	p.pos++
	for p.pos < len(p.src) && p.src[p.pos] != q {
		if q == '"' && p.src[p.pos] == '\\' {
			p.pos++
		}
		p.pos++
	}
	if p.pos >= len(p.src) {
		p.pos = start
		return Arg{}, p.errorf("unterminated string")
	}
	p.pos++
	lit := p.src[start:p.pos]
	if _, err := strconv.Unquote(lit); err != nil {
		p.pos = start
		return Arg{}, p.errorf("%s is not a valid Go string: %v", lit, err)
	}
	return Arg{Kind: ArgLiteral, Col: start, Lit: lit}, nil
}

func (p *dirParser) tree() (Arg, error) {
	a := Arg{Kind: ArgTree, Col: p.pos}
	p.pos++ // '{'
	if p.eat('}') {
		return a, nil
	}
	for {
		p.skipSpace()
		key := ""
		save := p.pos
		if p.pos < len(p.src) && (p.src[p.pos] == '"' || p.src[p.pos] == '_' || unicode.IsLetter(rune(p.src[p.pos]))) {
			if p.src[p.pos] == '"' {
				s, err := p.str()
				if err == nil && p.eat(':') {
					key = s.Lit
				} else {
					p.pos = save
				}
			} else if id := p.ident(); id != "" && p.eat(':') {
				key = id
			} else {
				p.pos = save
			}
		}
		e, err := p.arg()
		if err != nil {
			return Arg{}, err
		}
		a.Keys = append(a.Keys, key)
		a.Elems = append(a.Elems, e)
		if p.eat('}') {
			return a, nil
		}
		if !p.eat(',') {
			return Arg{}, p.errorf("expected ',' or '}' in a pytree")
		}
	}
}
