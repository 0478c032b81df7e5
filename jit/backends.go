package jit

import (
	_ "github.com/jitlint/jitlint/jit/cpu" // registers the "cpu" backend
)
