//go:build !race

package cpu

// raceEnabled is set when testing with -race.
const raceEnabled = false
