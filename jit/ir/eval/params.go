package eval

import (
	"fmt"

	"github.com/jitlint/jitlint/jit/ir"
)

// intParam reads a required integer parameter.
func intParam(p ir.Params, key string) (int, error) {
	v, ok := p[key]
	if !ok {
		return 0, fmt.Errorf("missing parameter %s", key)
	}
	switch v := v.(type) {
	case int:
		return v, nil
	case int32:
		return int(v), nil
	case int64:
		return int(v), nil
	}
	return 0, fmt.Errorf("parameter %s is %T, want int", key, v)
}

// intsParam reads an []int parameter; a missing or nil value is an error
// unless optional is set, in which case it reads as nil.
func intsParam(p ir.Params, key string, optional bool) ([]int, error) {
	v, ok := p[key]
	if !ok || v == nil {
		if optional {
			return nil, nil
		}
		return nil, fmt.Errorf("missing parameter %s", key)
	}
	s, ok := v.([]int)
	if !ok {
		return nil, fmt.Errorf("parameter %s is %T, want []int", key, v)
	}
	return s, nil
}

// boolParam reads an optional bool parameter (missing or nil reads false).
func boolParam(p ir.Params, key string) (bool, error) {
	v, ok := p[key]
	if !ok || v == nil {
		return false, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("parameter %s is %T, want bool", key, v)
	}
	return b, nil
}

// stringParam reads a required string parameter.
func stringParam(p ir.Params, key string) (string, error) {
	v, ok := p[key]
	if !ok {
		return "", fmt.Errorf("missing parameter %s", key)
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("parameter %s is %T, want string", key, v)
	}
	return s, nil
}

// dtypeParam reads a DType parameter; when optional, a missing or nil value
// reads as ir.Invalid.
func dtypeParam(p ir.Params, key string, optional bool) (ir.DType, error) {
	v, ok := p[key]
	if !ok || v == nil {
		if optional {
			return ir.Invalid, nil
		}
		return ir.Invalid, fmt.Errorf("missing parameter %s", key)
	}
	dt, ok := v.(ir.DType)
	if !ok {
		return ir.Invalid, fmt.Errorf("parameter %s is %T, want ir.DType", key, v)
	}
	if !ValidDType(dt) {
		if optional && dt == ir.Invalid {
			return ir.Invalid, nil
		}
		return ir.Invalid, fmt.Errorf("parameter %s is the invalid dtype %v", key, dt)
	}
	return dt, nil
}

// closedParam reads a required *ir.ClosedJaxpr parameter.
func closedParam(p ir.Params, key string) (*ir.ClosedJaxpr, error) {
	v, ok := p[key]
	if !ok {
		return nil, fmt.Errorf("missing parameter %s", key)
	}
	cj, ok := v.(*ir.ClosedJaxpr)
	if !ok || cj == nil || cj.Jaxpr == nil {
		return nil, fmt.Errorf("parameter %s is %T (or nil), want a non-nil *ir.ClosedJaxpr", key, v)
	}
	return cj, nil
}

// checkAxes checks that axes are distinct and within [0, rank).
func checkAxes(what string, axes []int, rank int) error {
	seen := make([]bool, rank)
	for _, a := range axes {
		if a < 0 || a >= rank {
			return fmt.Errorf("%s %v out of range for rank %d", what, axes, rank)
		}
		if seen[a] {
			return fmt.Errorf("%s %v repeats axis %d", what, axes, a)
		}
		seen[a] = true
	}
	return nil
}
