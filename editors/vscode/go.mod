// This file only keeps the Go tool out of the extension's tree (npm installs
// node_modules/flatted, which ships a Go package): `go test ./...` and
// `go vet ./...` from the repository root skip nested modules.
module github.com/jitlint/jitlint/editors/vscode

go 1.26
