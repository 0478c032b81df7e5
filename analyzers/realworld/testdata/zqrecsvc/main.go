// Command zqrecsvc simulates a recommendation service: each request carries a user and a
// retrieved candidate list of varying length; the service looks up embeddings and store
// features, scores the candidates with a jitted two-tower model and returns the top k.
package main

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand"
	"slices"

	"github.com/jitlint/jitlint/jit"
)

const (
	dim       = 8
	nItemFeat = 3 // popularity, price, freshness
	nItems    = 200
	nUsers    = 30
)

// Model is the two-tower scoring model.
type Model struct {
	Proj, FeatW, Bias jit.Array // [dim, dim], [nItemFeat], []
}

// Query is the per-request part of a scoring call.
type Query struct {
	User jit.Array // [dim]
	Mode string    `jit:"static"` // "home" or "search"
}

// FeatureStore maps entity keys to feature vectors.
type FeatureStore struct {
	items, users map[string][]float32
}

func (fs *FeatureStore) itemRows(ids []int) []float32 {
	out := make([]float32, 0, len(ids)*nItemFeat)
	for _, id := range ids {
		f, ok := fs.items[fmt.Sprintf("item:%d", id)]
		if !ok {
			f = make([]float32, nItemFeat) // cold item: all-zero features
		}
		out = append(out, f...)
	}
	return out
}

type Request struct {
	ID, User, K int
	Cands       []int
	Mode        string
	Legacy      bool
}

type Service struct {
	model                Model
	userEmb, itemEmb     [][]float32
	store                *FeatureStore
	rank                 *jit.Func[func(Model, Query, jit.Array, jit.Array) jit.Array]
	legacy               *jit.Func[func(Model, jit.Array, jit.Array, jit.Array) jit.Array]
	diversify, coldStart *jit.Func[func(jit.Array, jit.Array, jit.Array) jit.Array]
	auditCh              chan string // audit log, drained by a background writer

	rawScoreSum float64
}

// ScoreTower scores each candidate row against the projected user vector.
func ScoreTower(m Model, user, cands, feats jit.Array) jit.Array {
	return cands.MatMul(user.MatMul(m.Proj)).Add(feats.MatMul(m.FeatW)).Add(m.Bias)
}

func rankScores(m Model, q Query, cands, feats jit.Array) jit.Array {
	s := ScoreTower(m, q.User, cands, feats)
	k := feats.Shape()[0]
	if q.Mode == "home" {
		s = s.Add(feats.Slice([]int{0, 2}, []int{k, 3}).Reshape(k).Mul(0.5))
	} else {
		jit.DebugPrint("search scores max=%v", s.MaxReduce())
	}
	return s
}

func (s *Service) diversifyScores(scores, cands, mask jit.Array) jit.Array {
	s.auditCh <- fmt.Sprintf("diversify-v2 scored %d candidates", scores.Shape()[0]) // want traceeffect
	w := scores.Sub(scores.MaxReduce()).Exp().Mul(mask)
	centroid := w.Div(w.Sum()).MatMul(cands)
	return scores.Sub(cands.MatMul(centroid).Mul(0.3)).Add(mask.Sub(1).Mul(1e9))
}

func (s *Service) coldStartScores(userFeat, cands, feats jit.Array) jit.Array {
	k := feats.Shape()[0]
	if userFeat.Sum().Item() == 0 { // want tracedbool
		return feats.Slice([]int{0, 0}, []int{k, 1}).Reshape(k)
	}
	return ScoreTower(s.model, userFeat, cands, feats)
}

func NewService(rng *rand.Rand) *Service {
	randRows := func(n int) [][]float32 {
		rows := make([][]float32, n)
		for i := range rows {
			rows[i] = make([]float32, dim)
			for j := range rows[i] {
				rows[i][j] = float32(rng.NormFloat64() * 0.3)
			}
		}
		return rows
	}
	fs := &FeatureStore{items: map[string][]float32{}, users: map[string][]float32{}}
	for i := 0; i < nItems; i++ {
		if i%9 != 0 {
			fs.items[fmt.Sprintf("item:%d", i)] = []float32{rng.Float32(), rng.Float32() * 50, rng.Float32()}
		}
	}
	s := &Service{
		model:   Model{Proj: jit.FromSlice(slices.Concat(randRows(dim)...), dim, dim), FeatW: jit.FromSlice([]float32{1.0, -0.01, 0.4}), Bias: jit.Scalar(float32(0))},
		userEmb: randRows(nUsers), itemEmb: randRows(nItems), store: fs,
		rank:    jit.Jit(rankScores),
		legacy:  jit.Jit(ScoreTower),
		auditCh: make(chan string, 64),
	}
	s.diversify = jit.Jit(s.diversifyScores)
	s.coldStart = jit.Jit(s.coldStartScores)
	return s
}

// bucketLen pads candidate lists to 16, 32, 64, ... rows.
func bucketLen(n int) int {
	b := 16
	for b < n {
		b *= 2
	}
	return b
}

// gather builds the candidate embedding and feature matrices, padded to size rows.
func (s *Service) gather(ids []int, size int) (cands, feats, mask jit.Array) {
	emb := make([]float32, size*dim)
	for r, id := range ids {
		copy(emb[r*dim:], s.itemEmb[id])
	}
	f := append(s.store.itemRows(ids), make([]float32, (size-len(ids))*nItemFeat)...)
	m, _, _ := jit.PadTo(jit.Ones(jit.Float32, len(ids)), size)
	return jit.FromSlice(emb, size, dim), jit.FromSlice(f, size, nItemFeat), m
}

func topK[T cmp.Ordered](scores []T, n, k int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(scores[b], scores[a]) })
	return idx[:min(k, n)]
}

func (s *Service) Handle(req Request) (items []int, err error) {
	if len(req.Cands) == 0 {
		return nil, errors.New("retrieval returned no candidates")
	}
	user := jit.FromSlice(s.userEmb[req.User])
	if req.Legacy {
		cands, feats, _ := s.gather(req.Cands, len(req.Cands))
		scores := s.legacy.Call(s.model, user, cands, feats) // want shapechurn
		return pick(req, scores), nil
	}
	size := bucketLen(len(req.Cands))
	cands, feats, mask := s.gather(req.Cands, size)
	scores := s.rank.Call(s.model, Query{User: user, Mode: req.Mode}, cands, feats)
	scores = s.diversify.Call(scores, cands, mask)
	if req.ID%5 == 0 {
		// Personalised price sensitivity from the user's store features.
		sens := float32(0.01)
		if pf, ok := s.store.users[fmt.Sprintf("user:%d", req.User)]; ok {
			sens = pf[0]
		}
		adjust := jit.Jit(func(sc, ft jit.Array) jit.Array { // want staticargs
			return sc.Sub(ft.Slice([]int{0, 1}, []int{size, 2}).Reshape(size).Mul(sens))
		})
		scores = adjust.Call(scores, feats)
	}
	// Calibration monitor: mean raw tower score, before boosts and re-ranking.
	raw := jit.Jit(ScoreTower).Call(s.model, user, cands, feats).Mul(mask)
	s.rawScoreSum += raw.Sum().Item() / float64(len(req.Cands))
	return pick(req, scores), nil
}

func pick(req Request, scores jit.Array) (items []int) {
	for _, i := range topK(scores.Float32s(), len(req.Cands), req.K) {
		items = append(items, req.Cands[i])
	}
	return items
}

// tryColdStart scores for a user with no history (all-zero store features).
func (s *Service) tryColdStart(ids []int) (out jit.Array, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = r.(*jit.Error)
		}
	}()
	cands, feats, _ := s.gather(ids, bucketLen(len(ids)))
	return s.coldStart.Call(jit.Zeros(jit.Float32, dim), cands, feats), nil
}

func main() {
	rng := rand.New(rand.NewSource(11))
	s := NewService(rng)
	for u := 0; u < nUsers; u += 2 {
		s.store.users[fmt.Sprintf("user:%d", u)] = []float32{0.005 + 0.001*float32(u), 1}
	}
	logged := make(chan int)
	go func() {
		n := 0
		for range s.auditCh {
			n++
		}
		logged <- n
	}()

	served := 0
	for id := 0; id < 40; id++ {
		n := 4 + rng.Intn(56)
		req := Request{ID: id, User: rng.Intn(nUsers), Cands: rng.Perm(nItems)[:n], K: 5, Mode: "home", Legacy: id < 12}
		if id == 17 {
			req.Cands = nil // retrieval timed out
		}
		if id%7 == 3 {
			req.Mode, req.K = "search", 10
		}
		items, err := s.Handle(req)
		if err != nil {
			fmt.Println("request", id, "failed:", err)
			continue
		}
		served++
		if id%10 == 0 {
			fmt.Printf("req %2d (%2d cands, %s): top %v\n", id, n, req.Mode, items)
		}
	}
	if _, err := s.tryColdStart(rng.Perm(nItems)[:20]); err != nil {
		fmt.Println("cold-start scorer unavailable:", err.(*jit.Error).Kind)
	}
	close(s.auditCh)
	audits := <-logged
	fmt.Printf("served %d (mean raw score %.3f); legacy compiles=%d rank compiles=%d diversify compiles=%d audits=%d\n",
		served, s.rawScoreSum/float64(served-12), s.legacy.Stats().Compiles, s.rank.Stats().Compiles, s.diversify.Stats().Compiles, audits)
}
