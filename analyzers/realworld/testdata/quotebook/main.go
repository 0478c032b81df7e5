// Command quotebook prices shopping baskets for customers in three regions.
// A basket's line totals are converted from USD with the region's exchange
// rate, a per-customer loyalty discount is applied, and finally the desk
// re-prices the book with a live rate feed.
package main

import (
	"fmt"

	"corpus/quotebook/fx"

	"github.com/jitlint/jitlint/jit"
)

type customer struct {
	name     string
	region   string
	discount float64
}

var rates = map[string]jit.Array{
	"EUR": jit.Scalar(float32(0.92)),
	"GBP": jit.Scalar(float32(0.79)),
	"JPY": jit.Scalar(float32(151.3)),
}

// loyalty prices a basket after a customer's loyalty discount.
type loyalty struct{ keep float64 }

// Total is the discounted basket total.
func (l loyalty) Total(prices, qty jit.Array) jit.Array {
	return prices.Mul(qty).Mul(l.keep).Sum()
}

func basket(seed int) (prices, qty jit.Array) {
	p := make([]float32, 12)
	q := make([]float32, 12)
	for i := range p {
		p[i] = float32(1 + (i*7+seed)%13)
		q[i] = float32((i + seed) % 4)
	}
	return jit.FromSlice(p), jit.FromSlice(q)
}

func main() {
	quote := jit.Jit(func(region string, prices, qty jit.Array) jit.Array {
		gross := prices.Mul(qty)
		fx.Audit("quote", gross) // want traceeffect
		r := rates[region].Item()
		return gross.Mul(r).Sum()
	}, jit.StaticArgnums(0))

	customers := []customer{
		{"ada", "EUR", 0.05}, {"bo", "GBP", 0.10}, {"chen", "JPY", 0.00},
		{"dana", "EUR", 0.15}, {"eli", "GBP", 0.20}, {"fay", "JPY", 0.25},
	}

	totals := map[string]float64{}
	for day := 0; day < 5; day++ {
		for i, c := range customers {
			prices, qty := basket(day*len(customers) + i)
			totals[c.region] += quote.Call(c.region, prices, qty).Item()
		}
	}
	for _, r := range []string{"EUR", "GBP", "JPY"} {
		fmt.Printf("%s book: %.2f\n", r, totals[r])
	}

	prices, qty := basket(0)
	for _, c := range customers {
		pr := loyalty{keep: 1 - c.discount}
		loyal := jit.Jit(pr.Total) // want staticargs
		fmt.Printf("%-5s pays %.2f USD\n", c.name, loyal.Call(prices, qty).Item())
	}

	eur := fx.Convert(prices.Mul(qty), rates["EUR"])
	fx.Audit("eager", eur)
	fmt.Println("EUR lines:", eur)
	fmt.Println("audit trail:", fx.Ledger())

	reprice := jit.Jit(func(gross, live jit.Array) jit.Array {
		return fx.Convert(gross, live).Sum() // want tracedbool
	})
	feed := []float32{0.93, 0.91}
	for _, r := range feed {
		fmt.Println("repriced:", reprice.Call(prices.Mul(qty), jit.Scalar(r)))
	}
}
