// Package realworld holds jitlint's runtime-confirmed corpus and its test.
//
// testdata/ is a module (corpus) of runnable programs written the way people
// port JAX code: training loops, solvers, pipelines, sweeps, model methods,
// closures, function tables, generics, interfaces and helpers in another
// package. Each line where a correct tool reports a finding carries a
// comment "// want <analyzer>...". The test runs every program with the real
// runtime and checks each label against what happens (a trace error at that
// line; recompiles at that call site; an effect that runs while tracing; a
// loop that runs more than 32 times per trace — for an effect, a conversion
// or a loop in another package, at the call of the main package that
// reaches it inside the trace), and each unlabelled site
// against the same oracle; then it runs the analyzers on the corpus and
// scores them (precision and recall per analyzer) against the labels. See
// corpus_test.go for the oracle's rules.
package realworld
