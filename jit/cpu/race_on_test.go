//go:build race

package cpu

// raceEnabled is set when testing with -race (whose instrumentation
// allocates, so allocation counts are meaningless).
const raceEnabled = true
