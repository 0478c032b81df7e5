package eval

import (
	"io"
	"os"
	"sync"
)

var (
	printMu  sync.Mutex
	printOut io.Writer = os.Stdout
)

// SetPrintOutput sets where debug_print writes; nil restores the default,
// os.Stdout. Each printed line is one Write, made while no other debug_print
// writes, so w needs no locking of its own.
func SetPrintOutput(w io.Writer) {
	printMu.Lock()
	defer printMu.Unlock()
	if w == nil {
		w = os.Stdout
	}
	printOut = w
}

// printLine writes one debug_print line to the print output.
func printLine(s string) error {
	printMu.Lock()
	defer printMu.Unlock()
	_, err := io.WriteString(printOut, s)
	return err
}
