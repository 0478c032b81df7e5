module corpus

go 1.26.0

require github.com/jitlint/jitlint v0.0.0

require github.com/ebitengine/purego v0.11.3 // indirect

replace github.com/jitlint/jitlint => ../../..
