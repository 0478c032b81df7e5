// Package jsonrpc is jitls's JSON-RPC 2.0 connection in LSP's
// Content-Length framing: framing that resynchronises after bad input
// (a header line without a colon, an unreadable or oversized
// Content-Length), request ids echoed exactly as sent (a string, a number
// or null), answers to messages that are not JSON-RPC, and the server's own
// requests to the client matched to their responses. It knows nothing of
// LSP's methods; package lsp dispatches them.
package jsonrpc
