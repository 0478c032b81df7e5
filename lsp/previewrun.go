package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/go/analysis"
)

// untrustedHelp says how to enable code execution.
const untrustedHelp = "Previews and compile-cost measurements build and run your code, so jitls only runs them in a trusted workspace. " +
	"Enable them by starting jitls with initializationOptions {\"allowCodeExecution\": true} " +
	"(VS Code: trust the workspace; Neovim: init_options = { allowCodeExecution = true })."

// suite returns the analyzers for settings.
func (s *Server) suite(st Settings) []*analysis.Analyzer {
	if s.opts.Analyzers == nil {
		return nil
	}
	return s.opts.Analyzers(st)
}

func (s *Server) trusted() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settings.AllowCodeExecution
}

// resultFor waits for the analysis of the package containing u.
func (s *Server) resultFor(ctx context.Context, u protocol.DocumentURI) (*pkgResult, string, error) {
	path, err := filePath(u)
	if err != nil {
		return nil, "", err
	}
	res, err := s.diags.waitResult(ctx, filepath.Dir(path))
	if err != nil {
		return nil, "", err
	}
	if res.pp == nil {
		if res.err != nil {
			return nil, "", res.err
		}
		return nil, "", fmt.Errorf("no analysis of %s is available", u)
	}
	return res, path, nil
}

// tracedAt returns the traced function whose name (declared or used) or
// jit.Jit call contains the byte offset off of file path, or nil.
func (r *pkgResult) tracedAt(path string, off int) (*tracedFunc, span) {
	for _, tf := range r.traced {
		spans := append(append([]span{tf.nameSpan}, tf.refs...), tf.jitCalls...)
		for _, sp := range spans {
			if sp.file == path && sp.start <= off && off <= sp.end {
				return tf, sp
			}
		}
	}
	return nil, span{}
}

func (r *pkgResult) tracedNamed(name string) *tracedFunc {
	for _, tf := range r.traced {
		if tf.name == name {
			return tf
		}
	}
	return nil
}

// runPreview checks trust and the signature, then previews tf.
func (s *Server) runPreview(ctx context.Context, res *pkgResult, tf *tracedFunc, mode previewMode) (*previewResult, error) {
	if !s.trusted() {
		return nil, &previewError{untrustedHelp}
	}
	if tf.sigErr != "" {
		return nil, &previewError{fmt.Sprintf("%s cannot be previewed: %s", tf.name, tf.sigErr)}
	}
	in, err := s.previews.prepare(res, res.traced)
	if err != nil {
		return nil, err
	}
	if r := s.previews.cached(in, tf.name, mode); r != nil {
		return r, nil
	}
	title := "jitls: tracing " + tf.name
	if mode == modeMeasure {
		title = "jitls: measuring the compile cost of " + tf.name
	}
	pr := s.startProgress(ctx, title)
	r, err := s.previews.preview(ctx, in, tf.name, mode, pr.report)
	if err != nil {
		pr.end("failed")
		return nil, err
	}
	pr.end("done")
	return r, nil
}

// userError formats a harness-reported failure (error or panic in user code).
func userError(tf *tracedFunc, r *previewResult) error {
	switch {
	case r.Panic != "":
		return &previewError{fmt.Sprintf("%s panicked while being traced with (%s): %s\n%s", tf.name, tf.signature(), r.Panic, userStack(r.Stack))}
	case r.Error != "":
		return &previewError{fmt.Sprintf("%s with (%s): %s", tf.name, tf.signature(), r.Error)}
	}
	return nil
}

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
