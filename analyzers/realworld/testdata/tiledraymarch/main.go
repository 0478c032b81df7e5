// Command tiledraymarch renders a small signed-distance scene (a sphere over
// a ground plane) tile by tile with a jitted ray marcher, then writes a
// coarse ASCII preview of the frame.
package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/jitlint/jitlint/jit"
)

const (
	width, height = 96, 56
	tileSize      = 16
	coarseSteps   = 32 // enough for the preview pass
	fineSteps     = 48 // final pass: more steps for thin silhouettes
)

// Camera is the per-frame view; Aperture is static because it changes the
// shading code path (pinhole or not), not just a number.
type Camera struct {
	Eye      jit.Array // f32[3]
	Aperture int       `jit:"static"`
}

// pixelGrid returns the normalised screen coordinates of a tile as two
// (h, w) arrays, always tileSize x tileSize; pixels past the image edge
// are just rendered and cropped later.
func pixelGrid(x0, y0, h, w int) (jit.Array, jit.Array) {
	us := make([]float32, h*w)
	vs := make([]float32, h*w)
	for j := 0; j < h; j++ {
		for i := 0; i < w; i++ {
			us[j*w+i] = (float32(x0+i) - width/2) / height
			vs[j*w+i] = (height/2 - float32(y0+j)) / height
		}
	}
	return jit.FromSlice(us, h, w), jit.FromSlice(vs, h, w)
}

// sceneSDF is the distance to the nearest surface from (px, py, pz).
func sceneSDF(px, py, pz jit.Array) jit.Array {
	sphere := px.Mul(px).Add(py.Sub(0.2).Mul(py.Sub(0.2))).Add(pz.Sub(3).Mul(pz.Sub(3))).Sqrt().Sub(0.8)
	ground := py.Add(0.7)
	return sphere.Min(ground)
}

// march advances the ray depth t for the given number of sphere-tracing
// steps with a plain Go loop (the loop is staged once per step).
func march(cam Camera, u, v jit.Array, steps int) jit.Array {
	t := jit.Zeros(jit.Float32, u.Shape()...)
	ex, ey, ez := cam.Eye.Slice([]int{0}, []int{1}), cam.Eye.Slice([]int{1}, []int{2}), cam.Eye.Slice([]int{2}, []int{3})
	norm := u.Mul(u).Add(v.Mul(v)).Add(1).Rsqrt()
	for s := 0; s < steps; s++ { // want unrolledloop
		d := sceneSDF(ex.Add(u.Mul(norm).Mul(t)), ey.Add(v.Mul(norm).Mul(t)), ez.Add(norm.Mul(t)))
		t = t.Add(d)
	}
	return t
}

// shade turns depth into brightness: near hits bright, misses dark.
func shade(cam Camera, t jit.Array) jit.Array {
	lum := jit.Where(t.Lt(8), t.Neg().Mul(0.25).Exp(), 0)
	if cam.Aperture > 0 {
		lum = lum.Mul(0.9).Add(0.05) // soft lens: lift the blacks a little
	}
	return lum
}

// PreviewTile marches exactly coarseSteps steps.
func PreviewTile(cam Camera, u, v jit.Array) jit.Array {
	t := jit.Zeros(jit.Float32, u.Shape()...)
	ex, ey, ez := cam.Eye.Slice([]int{0}, []int{1}), cam.Eye.Slice([]int{1}, []int{2}), cam.Eye.Slice([]int{2}, []int{3})
	norm := u.Mul(u).Add(v.Mul(v)).Add(1).Rsqrt()
	for s := 0; s < coarseSteps; s++ {
		t = t.Add(sceneSDF(ex.Add(u.Mul(norm).Mul(t)), ey.Add(v.Mul(norm).Mul(t)), ez.Add(norm.Mul(t))))
	}
	return shade(cam, t)
}

// ReferenceTile marches many steps with a structured loop.
func ReferenceTile(cam Camera, u, v jit.Array) jit.Array {
	ex, ey, ez := cam.Eye.Slice([]int{0}, []int{1}), cam.Eye.Slice([]int{1}, []int{2}), cam.Eye.Slice([]int{2}, []int{3})
	norm := u.Mul(u).Add(v.Mul(v)).Add(1).Rsqrt()
	t := jit.ForiLoop(0, 96, func(i jit.Array, t jit.Array) jit.Array {
		return t.Add(sceneSDF(ex.Add(u.Mul(norm).Mul(t)), ey.Add(v.Mul(norm).Mul(t)), ez.Add(norm.Mul(t))))
	}, jit.Zeros(jit.Float32, u.Shape()...))
	return shade(cam, t)
}

type tile struct{ x0, y0, w, h int }

func tiles() []tile {
	var out []tile
	for y := 0; y < height; y += tileSize {
		for x := 0; x < width; x += tileSize {
			out = append(out, tile{x, y, min(tileSize, width-x), min(tileSize, height-y)})
		}
	}
	return out
}

func main() {
	cam := Camera{Eye: jit.FromSlice([]float32{0, 0, 0}), Aperture: 0}
	frame := make([]float32, width*height)

	marchedTiles := 0
	fine := jit.Jit(func(cam Camera, u, v jit.Array) jit.Array {
		marchedTiles++ // want traceeffect
		return shade(cam, march(cam, u, v, fineSteps))
	})
	preview := jit.Jit(PreviewTile)

	// Final pass: every tile is a full tileSize square, edge tiles included.
	for i, tl := range tiles() {
		u, v := pixelGrid(tl.x0, tl.y0, tileSize, tileSize)
		lum := fine.Call(cam, u, v).Float32s()
		for j := 0; j < tl.h; j++ {
			copy(frame[(tl.y0+j)*width+tl.x0:], lum[j*tileSize:j*tileSize+tl.w])
		}
		if i%6 == 5 {
			fmt.Printf("row %d done\n", i/6)
		}
	}
	fmt.Printf("fine pass: %d tiles, traced %d time(s), compiles %d\n", len(tiles()), marchedTiles, fine.Stats().Compiles)

	// Ragged preview: edge tiles keep their real size. Only a handful of
	// distinct shapes appear, each compiled once and reused.
	for _, tl := range tiles() {
		u, v := pixelGrid(tl.x0, tl.y0, tl.h, tl.w)
		_ = preview.Call(cam, u, v)
	}
	fmt.Printf("ragged preview: compiles %d for %d tiles\n", preview.Stats().Compiles, len(tiles()))

	// Progressive refinement of the centre: the region grows every round.
	grow := jit.Jit(PreviewTile)
	for r := 1; r <= 5; r++ {
		n := 4 * r
		u, v := pixelGrid(width/2-n/2, height/2-n/2, n, n)
		c := grow.Call(cam, u, v) // want shapechurn
		fmt.Printf("refine %dx%d: mean %.3f\n", n, n, c.Mean().Item())
	}

	// Depth-of-field toggles between pinhole and lens on alternate frames.
	ref := jit.Jit(ReferenceTile)
	u, v := pixelGrid(40, 20, tileSize, tileSize)
	for f := 0; f < 8; f++ {
		cam.Aperture = f % 2
		lum := ref.Call(cam, u, v)
		if f >= 6 {
			fmt.Printf("frame %d aperture %d centre %.3f\n", f, cam.Aperture, lum.Mean().Item())
		}
	}
	cam.Aperture = 0

	// Exposure ramp: the static exposure index changes every frame.
	expose := jit.Jit(func(stop int, lum jit.Array) jit.Array {
		return lum.Mul(float64(int(1) << stop)).Min(1)
	}, jit.StaticArgnums(0))
	centre := jit.FromSlice(frame[:width*tileSize], tileSize, width)
	for stop := 0; stop < 4; stop++ {
		e := expose.Call(stop, centre) // want staticargs
		fmt.Printf("exposure +%d: mean %.3f\n", stop, e.Mean().Item())
	}

	// Skip empty tiles early, computed on the traced depth.
	skip := jit.Jit(func(cam Camera, u, v jit.Array) (out jit.Array, err error) {
		t := march(cam, u, v, 8)
		if t.Lt(8).Sum().Item() == 0 { // want tracedbool
			return jit.Zeros(jit.Float32, u.Shape()...), nil
		}
		return shade(cam, t), nil
	})
	func() {
		defer func() {
			if r := recover(); r != nil {
				var je *jit.Error
				if e, ok := r.(error); ok && errors.As(e, &je) {
					fmt.Println("early-out tile failed:", je.Kind)
				}
			}
		}()
		skip.Call(cam, u, v)
	}()

	// Host-side coverage check on a concrete result is fine.
	if hits := fine.Call(cam, u, v).Gt(0.01).Astype(jit.Float32).Sum().Item(); hits > 0 {
		fmt.Printf("tile (40,20) has %d lit pixels\n", int(hits))
	}

	var sb strings.Builder
	for y := 0; y < height; y += 4 {
		for x := 0; x < width; x += 2 {
			sb.WriteByte(" .:-=+*#%@"[min(9, int(frame[y*width+x]*10))])
		}
		sb.WriteByte('\n')
	}
	fmt.Print(sb.String())
}
