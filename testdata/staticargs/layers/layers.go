// Package layers is a model library: an update that returns a new model
// and copies the model's static fields into it.
package layers

import "github.com/jitlint/jitlint/jit"

// MLP is a model whose activation is part of its signature.
type MLP struct {
	Act string `jit:"static"`
	W   []jit.Array
}

// SGD returns m - lr*g; the activation is m's.
func SGD(m, g MLP, lr float64) MLP {
	out := MLP{Act: m.Act, W: make([]jit.Array, len(m.W))}
	for i := range m.W {
		out.W[i] = m.W[i].Sub(g.W[i].Mul(lr))
	}
	return out
}

// Retarget returns m with the activation named by the epoch.
func Retarget(m MLP, epoch int) MLP {
	return MLP{Act: []string{"tanh", "relu", "gelu", "silu", "elu", "selu"}[epoch], W: m.W}
}
