package a

import (
	"fmt"
	"log"
	"math/rand"
	"time"

	"github.com/jitlint/jitlint/jit"
)

var compiles int

var logger = log.Default()

// F is the codelab's step 3: a print of static values.
func F(x jit.Array) jit.Array {
	fmt.Printf("tracing with shape=%v dtype=%s\n", x.Shape(), x.Dtype().Name()) // want `fmt.Printf runs once per trace, not on every call; use jit.DebugPrint to print at run time`
	return x.Pow(2).Add(1)
}

var f = jit.Jit(F)

// Effects has one of each kind.
func Effects(x jit.Array) jit.Array {
	fmt.Println("x =", x)     // want `fmt.Println runs once per trace`
	log.Printf("x=%v", x)     // want `log.Printf runs once per trace`
	logger.Println("tracing") // want `log.Println runs once per trace`
	println("hi")             // want `println runs once per trace`
	compiles++                // want `assignment to package variable compiles runs once per trace`
	start := time.Now()       // want `time.Now reads the clock once, at trace time`
	_ = start
	noise := rand.Float64() // want `rand.Float64 draws once, at trace time`
	return x.Add(noise)
}

var effects = jit.Jit(Effects)

// Captured writes a variable of the enclosing eager function.
func Captured() {
	var seen []jit.Array
	calls := 0
	g := jit.Jit(func(x jit.Array) jit.Array {
		seen = append(seen, x) // want `assignment to captured variable seen runs once per trace`
		calls += 1             // want `assignment to captured variable calls runs once per trace`
		local := 0
		local++
		return x.Sin()
	})
	_ = g
}

// ---- not reported ----

// Eager prints and counts in ordinary Go code.
func Eager() {
	y := f.Call(jit.Arange(4, jit.Float32))
	fmt.Printf("y = %v\n", y)
	compiles++
	_ = time.Now()
}

// Pure formats a string without printing and keeps state local.
func Pure(x jit.Array) jit.Array {
	s := fmt.Sprintf("%v", x.Shape())
	_ = s
	n := 0
	for i := 0; i < 3; i++ {
		n += i
	}
	jit.DebugPrint("x = %v\n", x)
	return x.Mul(n)
}

var pure = jit.Jit(Pure)

// Body writes a variable of the traced function from a scan body: that is
// one trace, not a captured outer variable.
func Body(x jit.Array) jit.Array {
	last := x
	y, _ := jit.ScanN(func(c jit.Array) (jit.Array, jit.Array) {
		last = c
		return c.Sin(), c
	}, x, 3)
	_ = last
	return y
}

var body = jit.Jit(Body)
