// Package textdoc is text documents as LSP names them: file: URIs and the
// paths they map to (the one place that maps them), byte offsets and LSP
// positions (which count UTF-16 code units), and incremental changes.
package textdoc
