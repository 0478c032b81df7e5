package ir

import (
	"path/filepath"
	"strconv"
)

// Pos is a position in the user's Go source: where an equation was staged.
// The tracer shares one Pos between all equations staged by the same call
// site, so a Pos must not be modified.
type Pos struct {
	File string // absolute path, as the Go runtime reports it
	Line int
}

// String returns "file:line" with the full path.
func (p *Pos) String() string {
	if p == nil {
		return ""
	}
	return p.File + ":" + strconv.Itoa(p.Line)
}

// Short returns "file.go:line" with the file's base name, as jaxprs print it.
func (p *Pos) Short() string {
	if p == nil {
		return ""
	}
	return filepath.Base(p.File) + ":" + strconv.Itoa(p.Line)
}
