// Command pubsub runs a pipeline of stages fed by a publish/subscribe
// broker: sensor and metric readings are normalized, smoothed, gated on
// their energy, scaled per topic and folded into running aggregates. Every
// stage is a goroutine running jitted transforms and sending arrays onward.
package main

import (
	"fmt"
	"math"
	"math/rand"
	"sort"
	"sync"
	"time"

	"corpus/pubsub/bus"

	"github.com/jitlint/jitlint/jit"
)

const (
	width    = 32
	taps     = 24
	messages = 40
)

var topicGain = map[string]float64{"sensors": 0.5, "metrics": 2.0}

// Normalize rescales a reading to zero mean and unit variance.
func Normalize(x jit.Array) jit.Array {
	eps := 1e-6 * (1 + rand.Float64()) // want traceeffect
	mu := x.Mean()
	d := x.Sub(mu)
	return d.Div(d.Mul(d).Mean().Add(eps).Sqrt())
}

// Smooth is a causal moving-average FIR filter with taps coefficients.
func Smooth(x jit.Array) jit.Array {
	n := x.Shape()[0]
	padded := jit.Concatenate(0, jit.Zeros(jit.Float32, taps-1), x)
	acc := jit.Zeros(jit.Float32, n)
	for k := 0; k < taps; k++ {
		acc = acc.Add(padded.Slice([]int{k}, []int{k + n}))
	}
	return acc.Div(taps)
}

// Energy is the mean square of a reading.
func Energy(x jit.Array) jit.Array { return x.Mul(x).Mean() }

// Route applies the topic's transfer curve.
func Route(topic string, x jit.Array) jit.Array {
	switch topic {
	case "sensors":
		return x.Tanh()
	default:
		return x.Mul(0.5).Add(x.Abs().Mul(0.5))
	}
}

// Annotate weights a reading by the number of tags it carries.
func Annotate(tags []string, x jit.Array) jit.Array {
	return x.Mul(1 + 0.1*float64(len(tags)))
}

// Running holds one topic's exponentially decayed statistics.
type Running struct {
	Mean, Sq jit.Array
	Count    int
}

// Aggregator folds readings into running statistics per topic.
type Aggregator struct {
	ByTopic   map[string]*Running
	lastFlush time.Time
}

func (a *Aggregator) update(mean, sq, x jit.Array) (jit.Array, jit.Array) {
	a.lastFlush = time.Now() // want traceeffect
	const alpha = 0.9
	return mean.Mul(alpha).Add(x.Mul(1 - alpha)), sq.Mul(alpha).Add(x.Mul(x).Mul(1 - alpha))
}

func normalizeStage(in <-chan bus.Message, out chan<- bus.Message) {
	defer close(out)
	norm := jit.Jit(Normalize)
	for m := range in {
		m.Data = norm.Call(m.Data)
		m.Data = jit.Jit(Smooth).Call(m.Data)
		out <- m
	}
}

func gateStage(in <-chan bus.Message, out chan<- bus.Message, dropped *int) {
	defer close(out)
	energy := jit.Jit(Energy)
	for m := range in {
		if e := energy.Call(m.Data).Item(); e < 0.02 {
			*dropped++
			continue
		}
		out <- m
	}
}

func scaleStage(in <-chan bus.Message, out chan<- bus.Message) {
	defer close(out)
	route := jit.Jit(Route, jit.StaticArgnums(0))
	for m := range in {
		gain := topicGain[m.Topic]
		scale := jit.Jit(func(x jit.Array) jit.Array { // want staticargs
			return x.Mul(gain)
		})
		m.Data = route.Call(m.Topic, scale.Call(m.Data))
		m.Data = Annotate(m.Tags, m.Data)
		out <- m
	}
}

func aggregateStage(in <-chan bus.Message, agg *Aggregator, wg *sync.WaitGroup) {
	defer wg.Done()
	update := jit.Jit(agg.update)
	for m := range in {
		r := agg.ByTopic[m.Topic]
		r.Mean, r.Sq = update.Call(r.Mean, r.Sq, m.Data)
		r.Count++
	}
}

func reading(topic string, seq int) jit.Array {
	d := make([]float32, width)
	amp := 1.0
	if seq%7 == 3 {
		amp = 0
	}
	for i := range d {
		phase := float64(seq)*0.4 + float64(i)*0.2
		if topic == "metrics" {
			phase *= 0.6
		}
		d[i] = float32(amp*math.Sin(phase) + 0.1*float64(i%3))
	}
	return jit.FromSlice(d)
}

func main() {
	b := bus.New()
	sensors := b.Subscribe("sensors", 4)
	metrics := b.Subscribe("metrics", 4)

	normed := make(chan bus.Message)
	gated := make(chan bus.Message)
	scaled := make(chan bus.Message)
	dropped := 0
	agg := &Aggregator{ByTopic: map[string]*Running{}}
	for topic := range topicGain {
		agg.ByTopic[topic] = &Running{Mean: jit.Zeros(jit.Float32, width), Sq: jit.Zeros(jit.Float32, width)}
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go normalizeStage(bus.Merge(sensors, metrics), normed)
	go gateStage(normed, gated, &dropped)
	go scaleStage(gated, scaled)
	go aggregateStage(scaled, agg, &wg)

	start := time.Now()
	for seq := 0; seq < messages; seq++ {
		topic := "sensors"
		if seq%2 == 1 {
			topic = "metrics"
		}
		b.Publish(bus.Message{Topic: topic, Seq: seq, Tags: []string{topic, fmt.Sprint("shard-", seq%3)}, Data: reading(topic, seq)})
	}
	b.Close()
	wg.Wait()
	topics := make([]string, 0, len(agg.ByTopic))
	for t := range agg.ByTopic {
		topics = append(topics, t)
	}
	sort.Strings(topics)
	fmt.Printf("aggregator last flushed at %s\n", agg.lastFlush.Format(time.TimeOnly))
	fmt.Printf("pipeline done in %v: %d dropped\n", time.Since(start).Round(time.Millisecond), dropped)
	ann := jit.Jit(Annotate, jit.StaticArgnums(0))
	for _, t := range topics {
		r := agg.ByTopic[t]
		v := r.Sq.Sub(r.Mean.Mul(r.Mean)).Mean().Item()
		fmt.Printf("%-8s %2d updates, mean var %.4f\n", t, r.Count, v)
		r.Mean = ann.Call([]string{t, "summary"}, r.Mean) // want staticargs
	}
}
