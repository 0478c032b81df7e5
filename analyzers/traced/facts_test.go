package traced_test

import (
	"testing"

	"github.com/jitlint/jitlint/analyzers/internal/fixturetest"
	"github.com/jitlint/jitlint/analyzers/traced"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestFacts checks the facts the traced analyzer exports for the exported
// functions of the fixtures' library packages: the operations they stage
// (unrolledloop/a's loops over them are reported with those counts), the
// host conversions and effects that a call from traced code reaches
// (reported at the calls in tracedbool/cross and traceeffect/cross), and
// the writes of methods to their receiver.
func TestFacts(t *testing.T) {
	analysistest.Run(t, fixturetest.Dir(t), traced.New(), "./unrolledloop/ops", "./traceeffect/optlib", "./tracedbool/helpers", "./traceeffect/helpers")
}
