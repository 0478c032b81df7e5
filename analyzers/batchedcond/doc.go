// Package batchedcond defines an Analyzer that reports branches and loops
// that jit.Vmap turns into work on every element.
//
// # Analyzer batchedcond
//
// batchedcond: report Cond, Switch and WhileLoop whose predicate depends on an argument that jit.Vmap maps
//
// Under jit.Vmap, a value that depends on a mapped argument has one value
// per element of the batch. A jit.Cond or jit.Switch whose predicate (or
// index) is such a value cannot choose one branch for the whole batch: as
// in JAX, every branch runs on every element and select_n picks each
// element's result, so the cost is the sum of the branches, not one of
// them. A jit.WhileLoop whose carry depends on a mapped argument runs until
// every element is done — as long as its slowest element — and freezes the
// finished ones with select_n.
//
// This is information, not an error: the results are right. When both
// branches are cheap, jit.Where(pred, a, b) says honestly what runs; when
// one is expensive, keep the predicate independent of the mapped arguments
// (mark an argument jit.NotMapped in jit.InAxes), or split the batch before
// mapping. The analyzer looks at the function passed to jit.Vmap and the
// function literals inside it.
package batchedcond
