// Command zkvecenv steps a batch of small arena games in lockstep. Each game is
// an entity-component world (position, velocity and health components of a
// few entities) advanced by a list of systems; the batch is vectorized with
// jit.Vmap, and games that finish early are reset in place.
package main

import (
	"fmt"
	"log"
	"math/rand"

	"github.com/jitlint/jitlint/jit"
)

const (
	nEnvs     = 8
	nEntities = 6
	maxTicks  = 24
	arena     = 1.0
)

// World holds the components of one game's entities.
type World struct {
	Pos  jit.Array // [nEntities, 2]
	Vel  jit.Array // [nEntities, 2]
	HP   jit.Array // [nEntities]
	Tick jit.Array // []
}

// Config is fixed per compiled program.
type Config struct {
	Substeps int    `jit:"static"`
	Mode     string `jit:"static"` // "train" or "eval"
}

type system struct {
	name string
	run  func(World, Config) World
}

var systemRuns = map[string]int{}

var systems = []system{
	{"collide", collide},
	{"lava", lava},
	{"friction", func(w World, _ Config) World { w.Vel = w.Vel.Mul(0.9); return w }},
}

func integrate(w World, dt float64) World {
	pos := w.Pos.Add(w.Vel.Mul(dt))
	out := pos.Abs().Gt(arena)
	w.Vel = jit.Where(out, w.Vel.Neg(), w.Vel)
	w.Pos = pos.Max(-arena).Min(arena)
	return w
}

// collide pushes every pair of live entities apart when they overlap.
func collide(w World, _ Config) World {
	push := jit.Zeros(jit.Float32, nEntities, 2)
	for i := 0; i < nEntities; i++ {
		for j := i + 1; j < nEntities; j++ {
			d := w.Pos.Slice([]int{i, 0}, []int{i + 1, 2}).Sub(w.Pos.Slice([]int{j, 0}, []int{j + 1, 2}))
			near := d.Pow(2).Sum().Lt(0.04)
			f := jit.Where(near, d.Mul(0.5), 0.0)
			sel := jit.Arange(nEntities, jit.Int32).Reshape(nEntities, 1)
			push = push.Add(jit.Where(sel.Eq(i), f, 0.0)).Sub(jit.Where(sel.Eq(j), f, 0.0))
		}
	}
	w.Vel = w.Vel.Add(push)
	return w
}

func lava(w World, cfg Config) World {
	if cfg.Mode == "eval" {
		return w
	}
	burning := w.Pos.Pow(2).Sum(1).Lt(0.35)
	w.HP = jit.Where(burning, w.HP.Sub(0.25), w.HP).Max(0)
	return w
}

func stepWorld(w World, cfg Config) World {
	dt := 1.0 / float64(cfg.Substeps)
	for s := 0; s < cfg.Substeps; s++ { // want unrolledloop
		w = integrate(w, dt)
	}
	for _, sys := range systems {
		systemRuns[sys.name]++ // want traceeffect
		w = sys.run(w, cfg)
	}
	w.Tick = w.Tick.Add(1)
	return w
}

func finished(w World) jit.Array {
	return w.HP.MaxReduce().Le(0).Or(w.Tick.Ge(maxTicks))
}

func resetDone(w, fresh World, done jit.Array) World {
	pick := func(a, b jit.Array) jit.Array {
		shape := append([]int{nEnvs}, make([]int, a.Ndim()-1)...)
		for i := 1; i < len(shape); i++ {
			shape[i] = 1
		}
		return jit.Where(done.Reshape(shape...), b, a)
	}
	return World{Pos: pick(w.Pos, fresh.Pos), Vel: pick(w.Vel, fresh.Vel), HP: pick(w.HP, fresh.HP), Tick: pick(w.Tick, fresh.Tick)}
}

// reward is the per-game reward: living entities earn, a wiped-out game is penalised.
func reward(w World) jit.Array {
	alive := w.HP.Gt(0).Astype(jit.Float32).Sum()
	if alive.Int() == 0 { // want tracedbool
		return jit.Full(-10, jit.Float32)
	}
	return alive.Mul(0.1)
}

func meanSoFar(hist jit.Array) jit.Array { return hist.Mean() }

func spawn(rng *rand.Rand, n int) World {
	pos, vel, hp := make([]float32, n*nEntities*2), make([]float32, n*nEntities*2), make([]float32, n*nEntities)
	for i := range pos {
		pos[i] = float32(rng.Float64()*2 - 1)
		vel[i] = float32(rng.NormFloat64() * 0.3)
	}
	for i := range hp {
		hp[i] = float32(0.5 + rng.Float64())
	}
	return World{Pos: jit.FromSlice(pos, n, nEntities, 2), Vel: jit.FromSlice(vel, n, nEntities, 2),
		HP: jit.FromSlice(hp, n, nEntities), Tick: jit.Zeros(jit.Float32, n)}
}

// take keeps the games listed in idx (host-side compaction).
func take(w World, idx []int) World {
	rows := func(a jit.Array) jit.Array {
		parts := make([]jit.Array, len(idx))
		for k, i := range idx {
			start, limit := make([]int, a.Ndim()), a.Shape()
			start[0], limit[0] = i, i+1
			parts[k] = a.Slice(start, limit)
		}
		return jit.Concatenate(0, parts...)
	}
	return World{Pos: rows(w.Pos), Vel: rows(w.Vel), HP: rows(w.HP), Tick: rows(w.Tick)}
}

func tryRewards(w World) {
	defer func() {
		if r := recover(); r != nil {
			log.Printf("reward system disabled: %v", r)
		}
	}()
	fmt.Println("rewards:", jit.Jit(jit.Vmap(reward)).Call(w))
}

func main() {
	rng := rand.New(rand.NewSource(11))
	step := jit.Jit(jit.Vmap(stepWorld, jit.InAxes(0, jit.NotMapped)))
	done := jit.Jit(jit.Vmap(finished))
	reset := jit.Jit(resetDone)
	stats := jit.Jit(meanSoFar)
	train := Config{Substeps: 40, Mode: "train"}

	w := spawn(rng, nEnvs)
	var aliveHist []float32
	window := make([]float32, 16)
	resets := 0
	for t := 0; t < 30; t++ {
		w = step.Call(w, train)
		flags := done.Call(w)
		for _, d := range flags.Bools() {
			if d {
				resets++
			}
		}
		w = reset.Call(w, spawn(rng, nEnvs), flags)
		alive := w.HP.Gt(0).Astype(jit.Float32).Sum().Item()
		aliveHist = append(aliveHist, float32(alive))
		window[t%len(window)] = float32(alive)
		runMean := stats.Call(jit.FromSlice(aliveHist)).Item() // want shapechurn
		winMean := stats.Call(jit.FromSlice(window)).Item()
		if t%10 == 9 {
			log.Printf("tick %2d: alive=%v running mean=%.2f window mean=%.2f resets=%d", t, alive, runMean, winMean, resets)
		}
	}
	tryRewards(w)

	// Evaluation: no lava, no resets; finished games drop out of the batch.
	ev := spawn(rng, nEnvs)
	handicap := make([]float32, nEnvs)
	for i := range handicap {
		handicap[i] = float32(2 * i) // later games start closer to the tick limit
	}
	ev.Tick = jit.FromSlice(handicap)
	evalCfg := Config{Substeps: 40, Mode: "eval"}
	ticks := 0
	for ev.HP.Shape()[0] > 0 {
		ev = step.Call(ev, evalCfg)
		ticks++
		var keep []int
		for i, d := range done.Call(ev).Bools() {
			if !d {
				keep = append(keep, i)
			}
		}
		if len(keep) == 0 {
			break
		}
		if len(keep) < ev.HP.Shape()[0] {
			ev = take(ev, keep)
		}
	}
	fmt.Printf("eval ran %d ticks; step compiles=%d; system runs=%v\n", ticks, step.Stats().Compiles, systemRuns)
}
