module github.com/jitlint/jitlint/bench/gemm

go 1.26.0

require (
	github.com/jitlint/jitlint v0.0.0
	gonum.org/v1/gonum v0.17.0
)

require golang.org/x/sys v0.49.0 // indirect

replace github.com/jitlint/jitlint => ../..
