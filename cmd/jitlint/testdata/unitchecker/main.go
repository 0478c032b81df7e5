// Command unitchecker is the stock go vet tool of the jitlint analyzers:
// golang.org/x/tools' unitchecker over analyzers.All(), with none of
// cmd/jitlint's code. TestVetDriverMatchesUnitchecker builds it (a package
// under testdata is built only when named) and compares jitlint's own go vet
// driver with it.
package main

import (
	"github.com/jitlint/jitlint/analyzers"
	"golang.org/x/tools/go/analysis/unitchecker"
)

func main() { unitchecker.Main(analyzers.All()...) }
