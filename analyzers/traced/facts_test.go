package traced_test

import (
	"testing"

	"github.com/jitlint/jitlint/analyzers/internal/fixturetest"
	"github.com/jitlint/jitlint/analyzers/traced"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestStagesFacts checks the operation counts that the traced analyzer
// exports for the functions of a package (unrolledloop/a's loops over
// them are reported with those counts).
func TestStagesFacts(t *testing.T) {
	analysistest.Run(t, fixturetest.Dir(t), traced.New(), "./unrolledloop/ops")
}

// TestStateFacts checks the facts that the traced analyzer exports for
// the methods of a package that write their receiver's state (traceeffect
// reports their calls on receivers that outlive a trace).
func TestStateFacts(t *testing.T) {
	analysistest.Run(t, fixturetest.Dir(t), traced.New(), "./traceeffect/optlib")
}
