package lsp

import (
	"fmt"
	"regexp"
	"strings"
)

// previewError is a failure shown to the user as is (build errors, panics
// in user code, timeouts).
type previewError struct{ msg string }

func (e *previewError) Error() string { return e.msg }

// userError formats a harness-reported failure (error or panic in user code).
func userError(tf *tracedFunc, r *previewResult) error {
	switch {
	case r.Panic != "":
		return &previewError{fmt.Sprintf("%s panicked while being traced with (%s): %s\n%s", tf.title(), tf.signature(), r.Panic, userStack(r.Stack))}
	case r.Error != "":
		msg := r.Error
		if tf.xform != nil {
			// jit positions an error of the transformation itself (a Grad
			// of a non-scalar, bad InAxes) at its caller: the harness
			// line that stands for the user's call.
			msg = harnessPos.ReplaceAllLiteralString(msg, tf.xform.pos)
		}
		return &previewError{fmt.Sprintf("%s with (%s): %s", tf.title(), tf.signature(), msg)}
	}
	return nil
}

// harnessPos matches a file:line of the generated harness.
var harnessPos = regexp.MustCompile(`[^\s]*` + regexp.QuoteMeta(harnessFile) + `:[0-9]+`)

// userStack keeps the frames of a panic's stack that are the user's: not
// the runtime's, reflect's, testing's, jit's or the harness's. Each frame
// is printed as "function (file:line)".
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
		internal := fn == "panic" || strings.Contains(loc, harnessFile) || strings.Contains(fn, "jitlsPreview")
		for _, prefix := range []string{"runtime.", "runtime/", "reflect.", "testing.", jitPkgPath + ".", jitPkgPath + "/"} {
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
