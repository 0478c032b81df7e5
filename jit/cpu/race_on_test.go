//go:build race

package cpu

// raceEnabled is set when testing with -race (sync.Pool then drops items
// at random, so allocation counts are meaningless).
const raceEnabled = true
