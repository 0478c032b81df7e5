// Package fx converts price arrays between currencies and keeps an audit
// trail of the conversions it was asked for.
package fx

import (
	"fmt"

	"github.com/jitlint/jitlint/jit"
)

var ledger []string

// Convert multiplies amounts by a one-element exchange rate.
func Convert(amounts, rate jit.Array) jit.Array {
	r := rate.Item()
	if r <= 0 {
		panic(fmt.Sprintf("fx: bad rate %v", r))
	}
	return amounts.Mul(r)
}

// Audit records that an array of amounts went through a pricing step.
func Audit(event string, amounts jit.Array) {
	ledger = append(ledger, fmt.Sprintf("%s %v", event, amounts.Shape()))
}

// Ledger returns the audit trail so far.
func Ledger() []string { return ledger }
