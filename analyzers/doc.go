// Package analyzers is the jitlint analyzer suite: static checks for code
// traced by github.com/jitlint/jitlint/jit. Each analyzer lives in its own
// package (tracedbool, unrolledloop, staticargs, shapechurn, traceeffect,
// wherenan, batchedcond)
// and shares the dataflow of package traced.
//
// Suite builds fresh analyzer values for a Config; All is the default suite
// that cmd/jitlint runs. The analyzers keep no global state, so they run
// unchanged under go vet, the language server (go/analysis/checker), Bazel
// nogo and golangci-lint.
package analyzers
