// Package lsp implements jitls, the language server for code traced by
// github.com/jitlint/jitlint/jit: live diagnostics from the jitlint
// analyzers, quick fixes, and (in trusted workspace folders) hovers, code
// lenses and inlay hints that show a function's jaxpr and compile cost.
//
// It is the protocol glue, one file per feature: internal/snapshot
// analyses packages into immutable snapshots that every feature reads,
// internal/previewer builds and runs previews, internal/jsonrpc is the
// connection, internal/textdoc maps URIs and positions.
package lsp

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/go/analysis"

	"github.com/jitlint/jitlint/internal/jsonrpc"
	"github.com/jitlint/jitlint/internal/previewer"
	"github.com/jitlint/jitlint/internal/snapshot"
)

// Options configures a Server. The zero value is usable: no analyzers,
// analysis as soon as an edit arrives and the `go` command found on PATH.
type Options struct {
	// Version is reported in serverInfo.
	Version string
	// Analyzers returns the analyzers to run for the given settings. It is
	// called again whenever the client changes the configuration.
	Analyzers func(Settings) []*analysis.Analyzer
	// DiagnosticsDelay is how long the server waits after an edit before it
	// analyses (edits arriving meanwhile restart the wait). Zero (the
	// default) analyses at once; edits that arrive while an analysis runs
	// cancel it at its next step and are analysed together when it stops.
	DiagnosticsDelay time.Duration
	// BuildTimeout bounds compiling a preview harness (2 minutes if zero);
	// RunTimeout bounds running it: tracing, compiling and timing user code
	// (1 minute if zero).
	BuildTimeout, RunTimeout time.Duration
	// GoCommand is the go binary used for previews ("go" if empty).
	GoCommand string
	// Log, if set, receives a copy of every log line (cmd/jitls passes
	// stderr when -logfile is given). Nothing is ever written to stdout.
	Log io.Writer
}

// Server is one language server session. Create it with New and serve a
// connection with Run; a Server serves one connection only.
type Server struct {
	opts Options

	conn *jsonrpc.Conn

	mu         sync.Mutex
	state      lifecycle
	settings   Settings
	analyzers  []*analysis.Analyzer
	clientCaps clientCaps
	folders    []string // the workspace folders (trust.go)
	docs       map[protocol.DocumentURI]*document
	exitCode   int
	exited     chan struct{} // closed by the exit notification

	previews  *previewer.Engine // builds and runs previews; owns every child process and temporary file
	harnesses harnesses
	view      *snapshot.View // analyses the packages of open files
	results   results        // their diagnostics
	runs      *snapshot.Runs // the last run's recompiles (the runtimeEvents setting)
	hints     hintPreviews
}

// lifecycle is the LSP session state.
type lifecycle int

const (
	stateCreated lifecycle = iota
	stateInitialized
	stateShutdown
	stateExited
)

// New returns a server configured by opts.
func New(opts Options) *Server {
	s := &Server{
		opts:     opts,
		docs:     make(map[protocol.DocumentURI]*document),
		exitCode: 1,
		exited:   make(chan struct{}),
		settings: defaultSettings(),
	}
	s.previews = previewer.New(previewer.Config{GoCommand: opts.GoCommand, BuildTimeout: opts.BuildTimeout, RunTimeout: opts.RunTimeout, Logf: s.logf})
	s.view = snapshot.NewView(snapshot.Config{
		Delay:     opts.DiagnosticsDelay,
		Analyzers: s.currentAnalyzers,
		Overlay:   s.overlay,
		GoEnv:     s.previews.GoEnv,
		Logf:      s.logf,
		Loading:   s.loading,
		Analyzed:  s.analyzed,
	})
	s.results = results{byDir: map[string]*pkgResult{}, published: map[string]map[protocol.DocumentURI]bool{}}
	s.runs = &snapshot.Runs{Path: s.runtimeEventsPath, Changed: s.view.RescheduleAll, Logf: s.logf}
	return s
}

// Run serves LSP on rwc until the client sends exit or closes the stream.
// It returns the process exit code LSP prescribes: 0 if exit followed
// shutdown, 1 otherwise.
func (s *Server) Run(ctx context.Context, rwc io.ReadWriteCloser) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.conn = jsonrpc.NewConn(rwc, s.logf)
	go s.conn.Serve(func(m *jsonrpc.Message) { s.handle(ctx, m) })
	// After exit (or cancellation) the connection is closed but not waited
	// for: a read blocked on stdin cannot be interrupted, and the process is
	// about to end anyway.
	select {
	case <-s.conn.Done():
	case <-s.exited:
	case <-ctx.Done():
		s.conn.Close()
	}
	s.view.Stop()
	s.runs.Stop()
	s.conn.CancelAll()
	s.mu.Lock()
	code := s.exitCode
	s.mu.Unlock()
	s.previews.Close()
	// The cancelled requests answer before Run returns (a client that is
	// still reading gets whole frames), unless one is stuck.
	s.conn.WaitRequests(5 * time.Second)
	return code
}

// currentAnalyzers returns the analyzers of the current settings.
func (s *Server) currentAnalyzers() []*analysis.Analyzer {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.analyzers
}

// runtimeEventsPath returns the events file of the runtimeEvents setting.
func (s *Server) runtimeEventsPath() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settings.RuntimeEvents
}

// logf sends a log line to the client (window/logMessage) and to Options.Log.
func (s *Server) logf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, "%s %s\n", time.Now().Format("15:04:05.000"), msg)
	}
	if s.conn == nil {
		return
	}
	s.notify(protocol.MethodWindowLogMessage, &protocol.LogMessageParams{Type: protocol.MessageTypeLog, Message: msg})
}

// notify sends a notification to the client, logging (not returning) failures.
func (s *Server) notify(method string, params any) {
	if err := s.conn.Notify(method, params); err != nil && s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, "jitls: sending %s: %v\n", method, err)
	}
}
