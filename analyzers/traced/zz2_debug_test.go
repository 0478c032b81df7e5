package traced_test

import (
	"os"
	"testing"

	"github.com/jitlint/jitlint/analyzers/internal/fixturetest"
	"github.com/jitlint/jitlint/analyzers/traced"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestZZRun(t *testing.T) {
	if os.Getenv("DBG_PKG") == "" {
		t.Skip()
	}
	analysistest.Run(t, fixturetest.Dir(t), traced.New(), os.Getenv("DBG_PKG"))
}
