// Command jitls is the language server for code traced by
// github.com/jitlint/jitlint/jit. It speaks LSP over stdin/stdout; see
// docs/editors.md for editor set-up.
//
// Usage:
//
//	jitls            serve LSP on stdio
//	jitls -version   print the version and exit
//	jitls -logfile F also write the server's log to F (never to stdout)
//	jitls -diagnostics-delay D  wait D after an edit before analysing (default 0)
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/jitlint/jitlint/lsp"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout io.WriteCloser, stderr io.Writer) int {
	fs := flag.NewFlagSet("jitls", flag.ContinueOnError)
	fs.SetOutput(stderr)
	showVersion := fs.Bool("version", false, "print the version and exit")
	logFile := fs.String("logfile", "", "also append the server log to this file")
	delay := fs.Duration("diagnostics-delay", 0, "wait this long after an edit before analysing (0: at once, cancelling superseded work; bench/lsp compares the two)")
	fs.Bool("stdio", true, "serve LSP on stdin/stdout (the only transport; accepted because clients such as vscode-languageclient pass it)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "jitls: unexpected arguments %q; jitls serves LSP on stdio and takes only flags (-version, -logfile, -diagnostics-delay)\n", fs.Args())
		return 2
	}
	if *showVersion {
		fmt.Fprintf(stdout, "jitls %s\n", version())
		return 0
	}
	opts := lsp.Options{Version: version(), Analyzers: analyzerSuite, DiagnosticsDelay: *delay}
	if *logFile != "" {
		f, err := os.OpenFile(*logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintf(stderr, "jitls: opening the log file: %v\n", err)
			return 2
		}
		defer f.Close()
		opts.Log = f
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return lsp.New(opts).Run(ctx, stdio{stdin, stdout})
}

// stdio joins stdin and stdout into the connection the server reads and
// writes; closing it closes stdout (stdin ends with the client).
type stdio struct {
	io.Reader
	io.WriteCloser
}

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}
