package ir

import "strings"

// This file is a small Wadler–Lindig "strictly pretty" layout engine with the
// exact line-breaking behaviour of JAX's printer (jaxlib/_pretty_printer.cc):
// a group is printed flat iff the group itself, printed flat, fits in the
// remaining width of the current line; the text after the group is not
// considered.

// doc is a layout document: textDoc, commentDoc, brkDoc, concatDoc, groupDoc
// or nestDoc.
type doc interface{}

// textDoc is literal text without newlines.
type textDoc string

// commentDoc is text that ends its line: no group that contains it is
// printed flat.
type commentDoc string

// brkDoc is a break: its text when its group is flat, a newline plus the
// current indentation otherwise.
type brkDoc string

// concatDoc lays its children out one after another.
type concatDoc []doc

// groupDoc is laid out flat when it fits, broken otherwise.
type groupDoc struct{ child doc }

// nestDoc increases the indentation of the lines its breaks start.
type nestDoc struct {
	n     int
	child doc
}

// text, brk, group, nest and concat build documents.
func text(s string) doc     { return textDoc(s) }
func brk(s string) doc      { return brkDoc(s) }
func group(d doc) doc       { return groupDoc{d} }
func nest(n int, d doc) doc { return nestDoc{n, d} }
func concat(ds ...doc) doc  { return concatDoc(ds) }
func space() doc            { return brkDoc(" ") }
func comment(s string) doc  { return commentDoc(s) }
func nilDoc() doc           { return concatDoc(nil) }
func joinDocs(sep doc, ds []doc) doc {
	out := make(concatDoc, 0, 2*len(ds))
	for i, d := range ds {
		if i > 0 {
			out = append(out, sep)
		}
		out = append(out, d)
	}
	return out
}

// fits reports whether d printed flat takes at most width columns.
func fits(d doc, width int) bool {
	stack := []doc{d}
	for width >= 0 && len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch t := top.(type) {
		case textDoc:
			width -= len(t)
		case commentDoc:
			return false
		case brkDoc:
			width -= len(t)
		case concatDoc:
			for i := len(t) - 1; i >= 0; i-- {
				stack = append(stack, t[i])
			}
		case groupDoc:
			stack = append(stack, t.child)
		case nestDoc:
			stack = append(stack, t.child)
		}
	}
	return width >= 0
}

// layoutItem is one pending piece of work of the layout loop.
type layoutItem struct {
	indent int
	flat   bool
	d      doc
}

// layout renders d at the given line width. The top level is in break mode.
func layout(d doc, width int) string {
	var out strings.Builder
	col := 0
	stack := []layoutItem{{0, false, d}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch t := it.d.(type) {
		case textDoc:
			out.WriteString(string(t))
			col += len(t)
		case commentDoc:
			out.WriteString(string(t))
			col += len(t)
		case brkDoc:
			if it.flat {
				out.WriteString(string(t))
				col += len(t)
			} else {
				out.WriteByte('\n')
				out.WriteString(strings.Repeat(" ", it.indent))
				col = it.indent
			}
		case concatDoc:
			for i := len(t) - 1; i >= 0; i-- {
				stack = append(stack, layoutItem{it.indent, it.flat, t[i]})
			}
		case groupDoc:
			stack = append(stack, layoutItem{it.indent, fits(t, width-col), t.child})
		case nestDoc:
			stack = append(stack, layoutItem{it.indent + t.n, it.flat, t.child})
		}
	}
	return out.String()
}
