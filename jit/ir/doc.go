// Package ir is the small intermediate representation everything in jitlint reads:
// dtypes, abstract values (shape + dtype + weak type), the jaxpr (variables,
// literals, equations, nested jaxprs), concrete host buffers, and JAX's text
// format for printing a jaxpr.
//
// The tracer in package jit writes jaxprs; the reference evaluator (package
// eval), the fusion planner, the CPU backend and the GPU backend read them.
// Primitive names and parameters follow JAX (see prims.go) so that a printed
// jaxpr reads exactly like JAX's.
package ir
