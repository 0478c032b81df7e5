package main

import (
	"fmt"
	"log"
	"maps"
	"slices"
	"sync"

	"github.com/jitlint/jitlint/jit"
)

// Model is what every plugin provides: a name and a batched prediction.
type Model interface {
	Name() string
	Predict(x jit.Array) jit.Array
}

// Factory builds a model for inputs with dim features.
type Factory func(dim int) Model

var (
	regMu    sync.RWMutex
	registry = map[string]Factory{}
)

// Register adds a factory under name; plugins call it from init().
func Register(name string, f Factory) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := registry[name]; dup {
		panic(fmt.Sprintf("model %q registered twice", name))
	}
	registry[name] = f
	log.Printf("registry: %s", name)
}

// Lookup returns the factory registered under name.
func Lookup(name string) (Factory, error) {
	regMu.RLock()
	defer regMu.RUnlock()
	if f, ok := registry[name]; ok {
		return f, nil
	}
	return nil, fmt.Errorf("unknown model %q", name)
}

// Names lists the registered models, sorted.
func Names() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	return slices.Sorted(maps.Keys(registry))
}
