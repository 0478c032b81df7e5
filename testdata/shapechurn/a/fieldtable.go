package a

import "github.com/jitlint/jitlint/jit"

// padConfig holds its length buckets in a field.
type padConfig struct{ buckets []int }

// bucket chooses among the configured lengths: a few values.
func (c padConfig) bucket(n int) int {
	for _, b := range c.buckets {
		if n <= b {
			return b
		}
	}
	return c.buckets[len(c.buckets)-1]
}

// fieldBuckets pads to a bucket from a config's table: a few shapes, not
// reported; padding to the length itself is one shape per length.
func fieldBuckets(rows [][]float32) {
	cfg := padConfig{buckets: []int{8, 16, 64}}
	for _, r := range rows {
		p, m, _ := jit.PadTo(jit.FromSlice(r), cfg.bucket(len(r)))
		maskedMean.Call(p, m)
	}
	for _, r := range rows {
		p, m, _ := jit.PadTo(jit.FromSlice(r), len(r)+1)
		maskedMean.Call(p, m) // want `argument x has a different shape` `argument mask has a different shape`
	}
}
