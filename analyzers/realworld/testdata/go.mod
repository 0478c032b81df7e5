module corpus

go 1.26.0

require github.com/jitlint/jitlint v0.0.0

require golang.org/x/sys v0.49.0 // indirect

replace github.com/jitlint/jitlint => ../../..
