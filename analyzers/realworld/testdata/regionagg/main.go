// Command regionagg ports the daily sales roll-up from our pandas job:
//
//	df.groupby("region")[["amount", "discount", "units"]].agg(["sum", "mean", "max"])
//	df.groupby("customer")["amount"].agg(["sum", "count"])
//
// Each day's ledger is padded to a fixed batch of rows with a mask, and the
// group-bys are one-hot kernels from corpus/agg, jitted once per signature.
package main

import (
	"fmt"
	"math/rand"
	"sort"

	"corpus/agg"
	"corpus/rolling"

	"github.com/jitlint/jitlint/jit"
)

const (
	batchRows = 256 // every day's ledger is padded to this many rows
	regions   = 4
	capacity  = 32 // customer-code capacity of the fixed-size kernels
)

var regionNames = [regions]string{"north", "south", "east", "west"}

// A dayLedger is one day's transactions, columnar, as read from the warehouse.
type dayLedger struct {
	day      string
	region   []int32
	customer []int32
	amount   []float32
	discount []float32
	units    []float32
}

// Batch is a padded day ledger, ready for the kernels.
type Batch struct {
	Region, Customer jit.Array // i32[batchRows]
	Amount, Discount jit.Array // f32[batchRows]
	Units, Mask      jit.Array // f32[batchRows]
}

// simulate generates six days of sales; the customer base grows day by day.
func simulate(rng *rand.Rand) []dayLedger {
	rows := []int{230, 256, 241, 256, 219, 188}
	customers := []int{11, 14, 19, 23, 27, 31}
	days := make([]dayLedger, len(rows))
	for d := range days {
		n := rows[d]
		l := dayLedger{day: fmt.Sprintf("2024-03-%02d", 4+d)}
		for i := 0; i < n; i++ {
			r := int32(rng.Intn(regions))
			c := int32(rng.Intn(customers[d]))
			if i == 0 {
				c = int32(customers[d] - 1) // the day's newest customer
			}
			units := float32(1 + rng.Intn(6))
			price := float32(8 + 4*float64(r) + 10*rng.Float64())
			disc := float32(0)
			if rng.Float64() < 0.2 {
				disc = 0.1 * units * price
			}
			l.region = append(l.region, r)
			l.customer = append(l.customer, c)
			l.units = append(l.units, units)
			l.amount = append(l.amount, units*price)
			l.discount = append(l.discount, disc)
		}
		days[d] = l
	}
	return days
}

func pad(l dayLedger) Batch {
	amount, mask, err := jit.PadTo(jit.FromSlice(l.amount), batchRows)
	if err != nil {
		panic(err)
	}
	discount, _, _ := jit.PadTo(jit.FromSlice(l.discount), batchRows)
	units, _, _ := jit.PadTo(jit.FromSlice(l.units), batchRows)
	return Batch{
		Region:   rolling.PadInts(l.region, batchRows, -1),
		Customer: rolling.PadInts(l.customer, batchRows, -1),
		Amount:   amount, Discount: discount, Units: units, Mask: mask,
	}
}

// CustomerTotals is groupby("customer")["amount"].agg(["sum", "count"]) for
// customer codes 0..numCustomers-1.
func CustomerTotals(numCustomers int, b Batch) (jit.Array, jit.Array) {
	total := agg.SegmentSum(b.Customer, b.Amount.Mul(b.Mask), numCustomers)
	count := agg.SegmentCount(b.Customer, b.Mask, numCustomers)
	return total, count
}

// RegionSummary returns sum, mean and max of the revenue per region; net
// revenue subtracts the discounts.
func RegionSummary(net bool, b Batch) [3]jit.Array {
	agg.Profile("region_summary", b.Amount.Shape()[0]) // want traceeffect
	revenue := b.Amount
	if net {
		revenue = revenue.Sub(b.Discount)
	}
	return [3]jit.Array{
		agg.SegmentSum(b.Region, revenue.Mul(b.Mask), regions),
		agg.SegmentMean(b.Region, revenue, b.Mask, regions),
		agg.SegmentMax(b.Region, revenue, b.Mask, regions),
	}
}

// RegionMeans is the per-region mean of one metric column; vmapped over the
// stacked metric columns below.
func RegionMeans(region, col, mask jit.Array) jit.Array {
	return agg.SegmentMean(region, col, mask, regions)
}

// distinctCustomers is len(df.customer.unique()) in the pandas job: the
// customer codes are dense, so it is the largest code plus one.
func distinctCustomers(l dayLedger) int {
	top := int32(-1)
	for _, c := range l.customer {
		if c > top {
			top = c
		}
	}
	return int(top) + 1
}

// topCustomers returns the k largest totals as "c07=123.4" strings.
func topCustomers(total []float32, k int) []string {
	idx := make([]int, len(total))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return total[idx[a]] > total[idx[b]] })
	out := []string{}
	for _, i := range idx[:k] {
		out = append(out, fmt.Sprintf("c%02d=%.0f", i, total[i]))
	}
	return out
}

func main() {
	rng := rand.New(rand.NewSource(7))
	days := simulate(rng)

	customers := jit.Jit(CustomerTotals, jit.StaticArgnums(0))
	regional := jit.Jit(RegionSummary, jit.StaticArgnums(0))
	metricMeans := jit.Jit(jit.Vmap(RegionMeans, jit.InAxes(jit.NotMapped, 0, jit.NotMapped)))

	fmt.Println("daily customer roll-up (codes seen so far):")
	for _, l := range days {
		b := pad(l)
		k := distinctCustomers(l)
		total, count := customers.Call(k, b) // want staticargs
		n := 0
		for _, c := range count.Float32s() {
			n += int(c)
		}
		fmt.Printf("  %s customers=%2d rows=%3d top=%v\n", l.day, k, n, topCustomers(total.Float32s(), 3))
	}

	fmt.Println("\nfixed-capacity customer roll-up and region summaries:")
	weekTotal := make([]float64, capacity)
	for _, l := range days {
		b := pad(l)
		total, _ := customers.Call(capacity, b)
		for i, v := range total.Float32s() {
			weekTotal[i] += float64(v)
		}
		for _, net := range []bool{false, true} {
			s := regional.Call(net, b)
			view := "gross"
			if net {
				view = "net"
			}
			sum, mean, top := s[0].Float32s(), s[1].Float32s(), s[2].Float32s()
			fmt.Printf("  %s %-5s", l.day, view)
			for r := 0; r < regions; r++ {
				fmt.Printf("  %s %7.0f/%5.1f/%5.1f", regionNames[r], sum[r], mean[r], top[r])
			}
			fmt.Println()
		}
		cols := jit.Concatenate(0, b.Amount.Reshape(1, batchRows), b.Discount.Reshape(1, batchRows), b.Units.Reshape(1, batchRows))
		means := metricMeans.Call(b.Region, cols, b.Mask).Float32s()
		fmt.Printf("  %s means  amount/discount/units per region:", l.day)
		for r := 0; r < regions; r++ {
			fmt.Printf(" %.1f/%.1f/%.1f", means[r], means[regions+r], means[2*regions+r])
		}
		fmt.Println()
	}
	best, bestTotal := 0, 0.0
	for i, v := range weekTotal {
		if v > bestTotal {
			best, bestTotal = i, v
		}
	}
	fmt.Printf("\nbest customer of the week: c%02d with %.0f\n", best, bestTotal)

	cs, rs, ms := customers.Stats(), regional.Stats(), metricMeans.Stats()
	fmt.Printf("customer totals: compiles=%d hits=%d\n", cs.Compiles, cs.Hits)
	fmt.Printf("region summary:  compiles=%d hits=%d\n", rs.Compiles, rs.Hits)
	fmt.Printf("metric means:    compiles=%d hits=%d\n", ms.Compiles, ms.Hits)
	fmt.Print("kernel profile:\n", agg.Report())
}
