// Command salesrollup aggregates daily sales for a chain of stores. A loader
// goroutine reads one day of per-store sales at a time and sends it on a
// channel; the consumer keeps the full history and, every day, computes the
// year-to-date totals and a 7-day trailing average per store. Monthly
// seasonality factors are estimated at the end from a fixed 12-month table.
package main

import (
	"fmt"
	"math"

	"github.com/jitlint/jitlint/jit"
)

const stores = 5

// Feed produces one day of sales per call.
type Feed struct {
	day int
}

// Next returns the sales of the next day as a [1, stores] array.
func (f *Feed) Next() jit.Array {
	xs := make([]float32, stores)
	for s := range xs {
		xs[s] = float32(100 + 20*math.Sin(float64(f.day+s)/4) + float64(s*10))
	}
	f.day++
	return jit.FromSlice(xs, 1, stores)
}

// ytd returns the total per store over the whole history [days, stores].
func ytd(history jit.Array) jit.Array { return history.Sum(0) }

// trailing averages the last 7 rows of a [7, stores] window.
func trailing(window jit.Array) jit.Array { return window.Mean(0) }

// seasonality returns each month's mean over the yearly mean, per store, from
// a [12, stores] table of monthly totals.
func seasonality(monthly jit.Array) jit.Array {
	yearly := monthly.Mean(0)
	rows := make([]jit.Array, 0, 12)
	for m := 0; m < 12; m++ {
		row := monthly.Slice([]int{m, 0}, []int{m + 1, stores})
		rows = append(rows, row.Div(yearly.Reshape(1, stores)))
	}
	return jit.Concatenate(0, rows...)
}

// weekdayProfile averages a [days, stores] history by day of the week into a
// [7, stores] profile.
func weekdayProfile(history jit.Array) jit.Array {
	n := history.Shape()[0]
	bins := make([]jit.Array, 7)
	for b := range bins {
		bins[b] = jit.Zeros(jit.Float32, 1, stores)
	}
	for d := 0; d < n; d++ { // want unrolledloop
		bins[d%7] = bins[d%7].Add(history.Slice([]int{d, 0}, []int{d + 1, stores}))
	}
	return jit.Concatenate(0, bins...).Div(float64(n / 7))
}

func main() {
	days := make(chan jit.Array)
	feed := &Feed{}
	go func() {
		for d := 0; d < 21; d++ {
			days <- feed.Next()
		}
		close(days)
	}()

	total := jit.Jit(ytd)
	avg := jit.Jit(trailing)
	var history jit.Array
	window := jit.Zeros(jit.Float32, 7, stores)
	d := 0
	for day := range days {
		if d == 0 {
			history = day
		} else {
			history = jit.Concatenate(0, history, day)
		}
		window = jit.Concatenate(0, window.Slice([]int{1, 0}, []int{7, stores}), day)
		t := total.Call(history) // want shapechurn
		a := avg.Call(window)
		if d%7 == 6 {
			fmt.Printf("day %2d: ytd %.0f  7-day avg %.1f\n", d+1, t.Float32s(), a.Float32s())
		}
		d++
	}
	fmt.Printf("compiles: ytd=%d trailing=%d\n", total.Stats().Compiles, avg.Stats().Compiles)

	monthly := make([]float32, 12*stores)
	for m := 0; m < 12; m++ {
		for s := 0; s < stores; s++ {
			monthly[m*stores+s] = float32(3000 + 400*math.Cos(float64(m)*math.Pi/6) + float64(100*s))
		}
	}
	season := jit.Jit(seasonality)
	f := season.Call(jit.FromSlice(monthly, 12, stores))
	fiveWeeks := make([]jit.Array, 35)
	for i := range fiveWeeks {
		fiveWeeks[i] = feed.Next()
	}
	profile := jit.Jit(weekdayProfile).Call(jit.Concatenate(0, fiveWeeks...))
	fmt.Printf("store 0 by weekday: %.1f\n", profile.Slice([]int{0, 0}, []int{7, 1}).Float32s())
	fmt.Printf("December factors: %.3f\n", f.Slice([]int{11, 0}, []int{12, stores}).Float32s())
}
