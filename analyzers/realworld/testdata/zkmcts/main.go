// Command zkmcts plays tic-tac-toe with a depth-limited negamax search whose
// leaves are scored by a jitted value network. The leaves under each frontier
// node are evaluated as one batch.
package main

import (
	"fmt"
	"log"

	"corpus/zkmcts/valnet"
	"github.com/jitlint/jitlint/jit"
)

const searchDepth = 3

type board [valnet.Cells]int8

var lines = [8][3]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}}

func (b board) winner() int8 {
	for _, l := range lines {
		if s := b[l[0]] + b[l[1]] + b[l[2]]; s == 3 || s == -3 {
			return s / 3
		}
	}
	return 0
}

func (b board) moves() []int {
	var out []int
	for i, c := range b {
		if c == 0 {
			out = append(out, i)
		}
	}
	return out
}

// encode stacks boards from the point of view of player.
func encode(bs []board, player int8) jit.Array {
	data := make([]float32, 0, len(bs)*valnet.Cells)
	for _, b := range bs {
		for _, c := range b {
			data = append(data, float32(c*player))
		}
	}
	return jit.FromSlice(data, len(bs), valnet.Cells)
}

// valueFor scores boards for the side given by player (+1 X, -1 O).
func valueFor(net valnet.Net, boards jit.Array, player int) jit.Array {
	return net.Value(boards.Mul(float64(player)))
}

// movePrior turns the values of the root's children into a move distribution.
func movePrior(net valnet.Net, children jit.Array) jit.Array {
	log.Printf("building prior over %d moves", children.Shape()[0]) // want traceeffect
	v := net.Value(children).Neg().Mul(3)
	e := v.Sub(v.MaxReduce()).Exp()
	return e.Div(e.Sum())
}

// finalScore is the network's opinion of a finished game, 0 for a full board.
func finalScore(net valnet.Net, b jit.Array) jit.Array {
	if b.Abs().Sum().Item() == valnet.Cells { // want tracedbool
		return jit.Zeros(jit.Float32, 1)
	}
	return net.Value(b)
}

type searcher struct {
	net   valnet.Net
	nodes int
	evals int
}

// negamax returns the value of b for the side to move, p.
func (s *searcher) negamax(b board, p int8, depth int) float64 {
	s.nodes++
	if w := b.winner(); w != 0 {
		return -1 // the previous mover has won
	}
	ms := b.moves()
	if len(ms) == 0 {
		return 0
	}
	if depth > 1 {
		best := -2.0
		for _, m := range ms {
			c := b
			c[m] = p
			best = max(best, -s.negamax(c, -p, depth-1))
		}
		return best
	}
	children := make([]board, len(ms))
	for i, m := range ms {
		children[i] = b
		children[i][m] = p
	}
	vals := jit.Jit(valueFor, jit.StaticArgnums(2)).Call(s.net, encode(children, 1), int(-p)).Float32s()
	s.evals += len(children)
	best := -2.0
	for i, c := range children {
		v := -float64(vals[i])
		if c.winner() == p {
			v = 1
		}
		best = max(best, v)
	}
	return best
}

func (s *searcher) bestMove(b board, p int8) int {
	bestM, best := -1, -3.0
	for _, m := range b.moves() {
		c := b
		c[m] = p
		if v := -s.negamax(c, -p, searchDepth-1); v > best {
			bestM, best = m, v
		}
	}
	return bestM
}

// hint is the network's quick read of the position for the move log.
func hint(net valnet.Net, b board, p int8) float64 {
	quick := jit.Jit(net.Value) // want staticargs
	return quick.Call(encode([]board{b}, p)).Item()
}

func analyse(net valnet.Net, history []board) {
	for i, b := range history {
		v := jit.Jit(valnet.Net.Value).Call(net, encode([]board{b}, 1)).Item()
		fmt.Printf("  ply %d: value for X %+.3f\n", i, v)
	}
	defer func() {
		if r := recover(); r != nil {
			log.Printf("final score unavailable: %v", r)
		}
	}()
	fmt.Println("final score:", jit.Jit(finalScore).Call(net, encode(history[len(history)-1:], 1)))
}

func main() {
	net := valnet.New(5, 32)
	fmt.Println(net.Describe())
	s := &searcher{net: net}
	prior := jit.Jit(movePrior)
	var b board
	p := int8(1)
	history := []board{b}
	for b.winner() == 0 && len(b.moves()) > 0 {
		ms := b.moves()
		children := make([]board, len(ms))
		for i, m := range ms {
			children[i] = b
			children[i][m] = p
		}
		pr := prior.Call(net, encode(children, -p)).Float32s() // want shapechurn
		m := s.bestMove(b, p)
		fmt.Printf("player %+d: hint %+.3f, plays %d (prior %.2f)\n", p, hint(net, b, p), m, pr[indexOf(ms, m)])
		b[m] = p
		history = append(history, b)
		p = -p
	}
	fmt.Printf("winner: %d, nodes=%d leaf evals=%d\n", b.winner(), s.nodes, s.evals)
	analyse(net, history)
}

func indexOf(xs []int, x int) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}
