package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/jitlint/jitlint/jit"
)

// Number is the set of host numeric types the helpers accept.
type Number interface {
	~int | ~int32 | ~int64 | ~float32 | ~float64
}

// Map applies f to every element.
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs { // want unrolledloop
		out = append(out, f(x))
	}
	return out
}

// Fold folds f over xs from the left.
func Fold[T, A any](xs []T, init A, f func(A, T) A) A {
	acc := init
	for _, x := range xs { // want unrolledloop
		acc = f(acc, x)
	}
	return acc
}

// Pairwise calls f on every pair of neighbours.
func Pairwise[T, U any](xs []T, f func(a, b T) U) []U {
	out := make([]U, 0, len(xs))
	for i := 1; i < len(xs); i++ {
		out = append(out, f(xs[i-1], xs[i]))
	}
	return out
}

// Range returns [0, n).
func Range[T Number](n T) []T {
	out := make([]T, 0, int(n))
	for i := T(0); i < n; i++ { // want unrolledloop
		out = append(out, i)
	}
	return out
}

// RoundUp rounds n up to a multiple of m.
func RoundUp[T ~int | ~int64](n, m T) T {
	return (n + m - 1) / m * m
}

// Sum adds host numbers.
func Sum[T Number](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

// ToHost copies an array's elements into a Go slice of T.
func ToHost[T float32 | float64](a jit.Array) []T {
	out := make([]T, 0, a.Size())
	var zero T
	if _, ok := any(zero).(float64); ok {
		for _, v := range a.Float64s() {
			out = append(out, T(v))
		}
		return out
	}
	for _, v := range a.Float32s() { // want tracedbool
		out = append(out, T(v))
	}
	return out
}

// Registry remembers one value per key.
type Registry[K comparable, V any] struct {
	m map[K]V
}

// NewRegistry returns an empty registry.
func NewRegistry[K comparable, V any]() *Registry[K, V] {
	return &Registry[K, V]{m: map[K]V{}}
}

// Put stores v under k.
func (r *Registry[K, V]) Put(k K, v V) {
	r.m[k] = v // want traceeffect
}

// String lists the registry, sorted by key.
func (r *Registry[K, V]) String() string {
	keys := make([]string, 0, len(r.m))
	for k, v := range r.m {
		keys = append(keys, fmt.Sprintf("%v=%v", k, v))
	}
	sort.Strings(keys)
	return strings.Join(keys, " ")
}

// Pair is a generic two-field pytree (when A and B are Arrays) or static
// configuration (when they are numbers).
type Pair[A, B any] struct {
	First  A
	Second B
}
