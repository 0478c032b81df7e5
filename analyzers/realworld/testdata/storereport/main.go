// Command storereport builds the weekly store report from the point-of-sale
// export: for every day and store it totals revenue and units, and flags
// transactions whose revenue is an outlier (|z| above a threshold, looser on
// weekends when baskets are bigger). Ported from the pandas notebook
// (read_csv, groupby(["date", "store"]), and a z-score filter).
package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"math/rand"
	"sort"
	"strconv"
	"strings"

	"corpus/rolling"

	"github.com/jitlint/jitlint/jit"
)

const (
	batchCap       = 128 // transactions per (day, store), padded
	weekdaySigma   = 3.0
	weekendSigma   = 2.5
	reportCurrency = "EUR"
)

var stores = []string{"amsterdam", "berlin", "lyon", "porto", "turin"}

// exportCSV generates the point-of-sale export the notebook read from S3.
func exportCSV(rng *rand.Rand) string {
	var b strings.Builder
	b.WriteString("date,store,sku,units,price\n")
	for d := 0; d < 7; d++ {
		date := fmt.Sprintf("2024-05-%02d", 6+d) // Monday 6 May
		for _, s := range stores {
			n := 40 + rng.Intn(50)
			for i := 0; i < n; i++ {
				units := 1 + rng.Intn(4)
				price := 3 + 20*rng.Float64()
				if rng.Float64() < 0.02 {
					units *= 12 // a catering order
				}
				fmt.Fprintf(&b, "%s,%s,SKU-%04d,%d,%.2f\n", date, s, rng.Intn(500), units, price)
			}
		}
	}
	b.WriteString("2024-05-09,lyon,SKU-0042,n/a,4.99\n") // a row the till mangled
	b.WriteString("2024-05-11,porto,SKU-0311,-2,6.50\n") // a refund
	return b.String()
}

type key struct{ date, store string }

// batch is the columns of one (day, store) group.
type batch struct {
	units, price []float32
}

// readExport parses the CSV into per-(day, store) batches, skipping bad rows.
func readExport(text string) (map[key]*batch, []string, int) {
	r := csv.NewReader(strings.NewReader(text))
	if _, err := r.Read(); err != nil { // header
		panic(err)
	}
	groups := map[key]*batch{}
	var dates []string
	skipped := 0
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			panic(err)
		}
		units, err1 := strconv.ParseFloat(rec[3], 32)
		price, err2 := strconv.ParseFloat(rec[4], 32)
		if err1 != nil || err2 != nil {
			skipped++
			continue
		}
		k := key{rec[0], rec[1]}
		g := groups[k]
		if g == nil {
			g = &batch{}
			groups[k] = g
			if len(dates) == 0 || dates[len(dates)-1] != k.date {
				dates = append(dates, k.date)
			}
		}
		g.units = append(g.units, float32(units))
		g.price = append(g.price, float32(price))
	}
	return groups, dates, skipped
}

// StoreDay is the kernel's summary of one (day, store).
type StoreDay struct {
	Revenue, Units jit.Array // f32[]
	Outliers       jit.Array // f32[] number of flagged transactions
	MaxZ           jit.Array // f32[]
	Flags          jit.Array // bool[batchCap]
}

var batchesScored int

// ScoreStore totals a padded (day, store) batch and flags revenue outliers.
func ScoreStore(sigma float64, units, price, mask jit.Array) StoreDay {
	batchesScored++ // want traceeffect
	revenue := units.Mul(price).Mul(mask)
	mean := rolling.MaskedMean(revenue, mask)
	std := rolling.MaskedStd(revenue, mask).Max(1e-6)
	z := revenue.Sub(mean).Div(std).Abs().Mul(mask)
	flags := z.Gt(sigma).And(mask.Gt(0))
	return StoreDay{
		Revenue:  revenue.Sum(),
		Units:    units.Mul(mask).Sum(),
		Outliers: flags.Astype(jit.Float32).Sum(),
		MaxZ:     z.MaxReduce(),
		Flags:    flags,
	}
}

// CheckBatch is the notebook's sanity check, assert (df.units > 0).all().
func CheckBatch(units, price, mask jit.Array) jit.Array {
	bad := units.Le(0).Or(price.Le(0)).Astype(jit.Float32).Mul(mask).Sum()
	if bad.Gt(0).Bool() { // want tracedbool
		return bad.Neg()
	}
	return units.Mul(price).Mul(mask).Sum()
}

// BadRows counts the rows with non-positive units or prices.
func BadRows(units, price, mask jit.Array) jit.Array {
	return units.Le(0).Or(price.Le(0)).Astype(jit.Float32).Mul(mask).Sum()
}

// DrillDown prints the flagged transactions' revenue when the compiled
// program runs (jax.debug.print style) and returns their share of revenue.
func DrillDown(units, price, flags jit.Array) jit.Array {
	revenue := units.Mul(price)
	flagged := jit.Where(flags, revenue, 0.0)
	jit.DebugPrint("    flagged revenue total=%v largest=%v", flagged.Sum(), flagged.MaxReduce())
	return flagged.Sum().Div(revenue.Sum().Max(1))
}

func isWeekend(date string) bool {
	day, _ := strconv.Atoi(date[len(date)-2:])
	return (day-6)%7 >= 5 // 6 May 2024 was a Monday
}

func main() {
	rng := rand.New(rand.NewSource(2024))
	groups, dates, skipped := readExport(exportCSV(rng))
	fmt.Printf("read %d (day, store) groups over %d days; skipped %d malformed rows\n", len(groups), len(dates), skipped)

	// Validate the schema once before scoring, on abstract shapes.
	spec := jit.Spec(jit.Float32, batchCap)
	check := jit.Jit(CheckBatch)
	if _, err := check.Trace(spec, spec, spec); err != nil {
		fmt.Println("sanity check cannot be traced, counting bad rows instead:")
		fmt.Println("  ", strings.SplitN(err.Error(), "\n", 2)[0])
	}
	badRows := jit.Jit(BadRows)
	score := jit.Jit(ScoreStore, jit.StaticArgnums(0))
	drill := jit.Jit(DrillDown)

	weekRevenue := map[string]float64{}
	totalFlags := 0
	for _, date := range dates {
		sigma := weekdaySigma
		if isWeekend(date) {
			sigma = weekendSigma
		}
		fmt.Printf("%s (|z| > %.1f)\n", date, sigma)
		for _, s := range stores {
			g := groups[key{date, s}]
			units, mask, err := jit.PadTo(jit.FromSlice(g.units), batchCap)
			if err != nil {
				panic(err)
			}
			price, _, _ := jit.PadTo(jit.FromSlice(g.price), batchCap)
			if n := badRows.Call(units, price, mask).Int(); n > 0 {
				fmt.Printf("  %-9s excluding %d refund rows\n", s, n)
				mask = mask.Mul(units.Gt(0).And(price.Gt(0)).Astype(jit.Float32))
			}
			r := score.Call(sigma, units, price, mask)
			rev := r.Revenue.Item()
			weekRevenue[s] += rev
			nOut := r.Outliers.Int()
			totalFlags += nOut
			fmt.Printf("  %-9s rows=%3d revenue=%8.2f %s units=%4.0f outliers=%d max|z|=%.2f\n",
				s, len(g.units), rev, reportCurrency, r.Units.Item(), nOut, r.MaxZ.Item())
			if nOut > 1 {
				share := drill.Call(units, price, r.Flags).Item()
				fmt.Printf("    outliers are %.1f%% of the store's revenue\n", 100*share)
			}
		}
	}

	fmt.Println("\nweek ranking:")
	ranked := append([]string(nil), stores...)
	sort.Slice(ranked, func(i, j int) bool { return weekRevenue[ranked[i]] > weekRevenue[ranked[j]] })
	best := weekRevenue[ranked[0]]
	for i, s := range ranked {
		fmt.Printf("  %d. %-9s %9.2f %s (%.0f%% of best)\n", i+1, s, weekRevenue[s], reportCurrency,
			100*weekRevenue[s]/math.Max(best, 1))
	}
	st := score.Stats()
	fmt.Printf("flagged transactions: %d; batches scored: %d; score compiles=%d hits=%d\n",
		totalFlags, batchesScored, st.Compiles, st.Hits)
}
