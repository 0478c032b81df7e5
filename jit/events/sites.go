package events

import (
	"maps"
	"slices"
)

// Site is what one call site compiled in one process: the events of
// kinds Compile and CacheMiss with the same CallSite and PID.
type Site struct {
	CallSite  string // file:line
	File      string
	Line      int
	Function  string // the function compiled there (the last one, if several)
	DefinedAt string // file:line of Function
	PID       int
	Compiles  int
	Calls     int     // calls made there up to its last compile (0: not recorded)
	MS        float64 // trace + lower + compile time of all its compiles
	Causes    []*Cause
	Sources   map[string]string // as in Event.Sources, of all its events
}

// Cause is one reason a call site compiled again, with how often it was
// the reason and the successive values it took.
type Cause struct {
	// Kind is a ChangeKind, or NewFunction.
	Kind ChangeKind
	// Path names the argument that changed (empty for pytree, backend and
	// NewFunction).
	Path   string
	Count  int
	Values []string // the values passed in order (consecutive repeats once)
}

// NewFunction is the Cause of a call site that compiles a function's first
// signature more than once: a new jitted function (or a cleared cache) each
// time.
const NewFunction ChangeKind = "new"

// What says what the cause is, in words.
func (c *Cause) What() string {
	switch c.Kind {
	case NewFunction:
		return "a new jitted function each time (jit.Jit is called again, so its cache starts empty)"
	case StaticChange:
		return "static argument " + c.Path + " changed"
	case TypeChange:
		return "the shape or dtype of " + c.Path + " changed"
	case WeakChange:
		return "the weak type of " + c.Path + " changed (a Go number versus an Array)"
	case PytreeChange:
		return "the pytree structure of the arguments changed"
	case BackendChange:
		return "the backend changed"
	}
	return string(c.Kind) + " " + c.Path + " changed"
}

// Sites groups the compiles of evs by call site and process, in the order
// of their first events. Events whose call site is not a file:line are
// left out.
func Sites(evs []Event) []*Site {
	type key struct {
		site string
		pid  int
	}
	byKey := map[key]*Site{}
	var out []*Site
	for _, e := range evs {
		if e.Event != Compile && e.Event != CacheMiss {
			continue
		}
		k := key{e.CallSite, e.PID}
		st := byKey[k]
		if st == nil {
			file, line, ok := SplitPos(e.CallSite)
			if !ok {
				continue
			}
			st = &Site{CallSite: e.CallSite, File: file, Line: line, PID: e.PID, Sources: map[string]string{}}
			byKey[k] = st
			out = append(out, st)
		}
		st.Function, st.DefinedAt = e.Function, e.DefinedAt
		st.Compiles++
		st.Calls = max(st.Calls, e.Calls)
		st.MS += e.TraceMS + e.LowerMS + e.CompileMS
		maps.Copy(st.Sources, e.Sources)
		if e.Event == Compile && st.Compiles > 1 {
			st.add(NewFunction, "")
		}
		for _, c := range e.Changes {
			st.add(c.Kind, c.Path, c.Before, c.Now)
		}
	}
	return out
}

// add counts one occurrence of a cause with the before and now values: the
// values the call site passed in order are the first before and every now.
func (st *Site) add(kind ChangeKind, path string, values ...string) {
	i := slices.IndexFunc(st.Causes, func(c *Cause) bool { return c.Kind == kind && c.Path == path })
	var c *Cause
	if i < 0 {
		c = &Cause{Kind: kind, Path: path}
		st.Causes = append(st.Causes, c)
	} else if c = st.Causes[i]; len(values) > 1 {
		values = values[1:]
	}
	c.Count++
	for _, v := range values {
		if v != "" && (len(c.Values) == 0 || c.Values[len(c.Values)-1] != v) {
			c.Values = append(c.Values, v)
		}
	}
}

// Top returns the cause that counts most (the first seen of a tie), or nil.
func (st *Site) Top() *Cause {
	var top *Cause
	for _, c := range st.Causes {
		if top == nil || c.Count > top.Count {
			top = c
		}
	}
	return top
}
