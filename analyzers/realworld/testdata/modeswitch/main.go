// Command modeswitch serves a model in one of several modes chosen by a
// string: at startup a switch picks the forward function and jits it once;
// the request loop of the second server jits inside the switch, so every
// request starts from an empty cache.
package main

import (
	"fmt"
	"os"

	"github.com/jitlint/jitlint/jit"
)

func fastForward(x jit.Array) jit.Array  { return x.Mul(0.5).Tanh() }
func exactForward(x jit.Array) jit.Array { return x.Mul(0.5).Exp().Sub(x.Mul(-0.5).Exp()).Div(2) }
func debugForward(x jit.Array) jit.Array {
	jit.DebugPrint("forward %v\n", x)
	return x.Mul(0.5).Tanh()
}

type server struct {
	fwd *jit.Func[func(jit.Array) jit.Array]
}

func newServer(mode string) *server {
	s := &server{}
	switch mode {
	case "fast":
		s.fwd = jit.Jit(fastForward)
	case "exact":
		s.fwd = jit.Jit(exactForward)
	default:
		s.fwd = jit.Jit(debugForward)
	}
	return s
}

func request(i int) jit.Array { return jit.Full(float64(i)/10, jit.Float32, 4) }

func main() {
	mode := os.Getenv("SERVE_MODE")
	if mode == "" {
		mode = "fast"
	}
	srv := newServer(mode)
	exact, debug := newServer("exact"), newServer("debug")
	for i := range 8 {
		fmt.Println(srv.fwd.Call(request(i)).Sum().Item(), exact.fwd.Call(request(i)).Sum().Item())
	}
	fmt.Println(debug.fwd.Call(request(1)).Sum().Item())

	// The second server reads the mode from each request.
	modes := []string{"fast", "exact", "debug"}
	for i := range 9 {
		var y jit.Array
		switch modes[i%3] {
		case "fast":
			f := jit.Jit(fastForward) // a named function: its wrappers share one cache
			y = f.Call(request(i))
		case "exact":
			y = jit.Jit(exactForward).Call(request(i)) // a named function: its wrappers share one cache
		default:
			y = jit.Jit(debugForward).Call(request(i)) // a named function: its wrappers share one cache
		}
		fmt.Println("per request", i, y.Sum().Item())
	}
}
