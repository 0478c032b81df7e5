package previewer

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/jitlint/jitlint/jit/preview/result"
)

// UserError formats a failure the harness reported (an error, or a panic
// in the user's code) for a preview of title with the input signature
// sig, or returns nil if r did not fail. xformPos, if not "", is the
// file:line:col of the user's transformation call that the preview
// traces: jit positions an error of the transformation itself (a Grad of a
// non-scalar, bad InAxes) at its caller, a harness line, which stands for
// that call.
func UserError(title, sig, xformPos string, r *result.Preview) error {
	switch {
	case r.Panic != "":
		return fmt.Errorf("%s panicked while being traced with (%s): %s\n%s", title, sig, r.Panic, userStack(r.Stack))
	case r.Error != "":
		msg := r.Error
		if xformPos != "" {
			msg = harnessPos.ReplaceAllLiteralString(msg, xformPos)
		}
		return fmt.Errorf("%s with (%s): %s", title, sig, msg)
	}
	return nil
}

// harnessPos matches a file:line of the generated harness.
var harnessPos = regexp.MustCompile(`[^\s]*` + regexp.QuoteMeta(HarnessFile) + `:[0-9]+`)

// userStack keeps the frames of a panic's stack that are the user's: not
// the runtime's, reflect's, testing's, jit's (the harness runtime's
// included) or the generated harness's. Each frame is printed as
// "function (file:line)".
func userStack(stack string) string {
	lines := strings.Split(stack, "\n")
	var out []string
	for i := 1; i+1 < len(lines); i += 2 {
		fn, loc := strings.TrimSpace(lines[i]), strings.TrimSpace(lines[i+1])
		if k := strings.LastIndex(fn, "("); k > 0 {
			fn = fn[:k]
		}
		if k := strings.LastIndex(loc, " +0x"); k > 0 {
			loc = loc[:k]
		}
		internal := fn == "panic" || strings.Contains(loc, HarnessFile)
		for _, prefix := range []string{"runtime.", "runtime/", "reflect.", "testing.", jitPath + ".", jitPath + "/"} {
			internal = internal || strings.HasPrefix(fn, prefix)
		}
		if internal {
			continue
		}
		out = append(out, fmt.Sprintf("%s (%s)", fn, loc))
		if len(out) == 8 {
			break
		}
	}
	return strings.Join(out, "\n")
}
