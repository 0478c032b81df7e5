package gpu

import (
	"fmt"

	"github.com/jitlint/jitlint/jit/ir"
)

// dotTile is the side of the square tiles of the dot kernel (tile*tile =
// blockSize threads).
const dotTile = 16

// dotShape is a canonical batched matrix product: A is [B,M,K], Bm is
// [B,K,N], C is [B,M,N], all row-major.
type dotShape struct{ b, m, k, n int }

// emitDot writes a tiled matrix-product kernel: each block computes a 16x16
// tile of C, staging 16x16 tiles of A and B in shared memory. Parameters:
// A, B, C. It returns the kernel and its grid size.
func emitDot(name string, t ir.DType, s dotShape) (*kernel, int, error) {
	if err := checkDType(t); err != nil {
		return nil, 0, err
	}
	if t == ir.Bool {
		return nil, 0, fmt.Errorf("dot_general on bool is not supported by the gpu backend")
	}
	tilesM, tilesN := (s.m+dotTile-1)/dotTile, (s.n+dotTile-1)/dotTile
	size := t.ItemSize()
	k := newKernel(name, 3)
	k.shared = 2 * dotTile * dotTile * size
	a, b, c := k.param(0), k.param(1), k.param(2)
	tid, blk := k.reg("%r"), k.reg("%r")
	k.op("mov.u32 %s, %%tid.x", tid)
	k.op("mov.u32 %s, %%ctaid.x", blk)
	tx, ty := k.reg("%r"), k.reg("%r")
	k.op("and.b32 %s, %s, %d", tx, tid, dotTile-1)
	k.op("shr.u32 %s, %s, 4", ty, tid)
	bc := k.coords(blk, []int{s.b, tilesM, tilesN})
	row, col := k.reg("%r"), k.reg("%r")
	k.op("mad.lo.s32 %s, %s, %d, %s", row, bc[1], dotTile, ty)
	k.op("mad.lo.s32 %s, %s, %d, %s", col, bc[2], dotTile, tx)
	aBase, bBase := k.reg("%r"), k.reg("%r")
	k.op("mul.lo.s32 %s, %s, %d", aBase, bc[0], s.m*s.k)
	k.op("mul.lo.s32 %s, %s, %d", bBase, bc[0], s.k*s.n)
	rowOK := k.setp("lt", ".s32", row, fmt.Sprint(s.m))
	colOK := k.setp("lt", ".s32", col, fmt.Sprint(s.n))
	sm, sa, sb := k.reg("%r"), k.reg("%r"), k.reg("%r")
	k.op("mov.u32 %s, %s_smem", sm, name)
	k.op("mad.lo.s32 %s, %s, %d, %s", sa, tid, size, sm) // As[ty][tx]
	k.op("add.s32 %s, %s, %d", sb, sa, dotTile*dotTile*size)
	acc := k.reg(regClass(t))
	k.move(acc, k.constant(t, 0))
	kt := k.reg("%r")
	k.op("mov.u32 %s, 0", kt)
	loop, end := k.label(), k.label()
	k.mark(loop)
	k.op("@%s bra %s", k.setp("ge", ".s32", kt, fmt.Sprint(s.k)), end)
	// A[b, row, kt+tx] and B[b, kt+ty, col], zero outside the matrices.
	ka, kb := k.reg("%r"), k.reg("%r")
	k.op("add.s32 %s, %s, %s", ka, kt, tx)
	k.op("add.s32 %s, %s, %s", kb, kt, ty)
	for _, ld := range []struct {
		ok1, kk, base, i, j string
		stride              int
		slot                string
		rowMajorK           bool
	}{
		{rowOK, ka, aBase, row, ka, s.k, sa, true},
		{colOK, kb, bBase, kb, col, s.n, sb, false},
	} {
		ok := k.reg("%p")
		k.op("and.pred %s, %s, %s", ok, ld.ok1, k.setp("lt", ".s32", ld.kk, fmt.Sprint(s.k)))
		at := k.reg("%r")
		k.op("mad.lo.s32 %s, %s, %d, %s", at, ld.i, ld.stride, ld.j)
		k.op("add.s32 %s, %s, %s", at, at, ld.base)
		v := k.reg(regClass(t))
		k.move(v, k.constant(t, 0))
		k.op("@%s ld.global%s %s, [%s]", ok, memType(t), v, k.addr(map[bool]string{true: a, false: b}[ld.rowMajorK], at, size))
		k.op("st.shared%s [%s], %s", memType(t), ld.slot, v)
	}
	k.op("bar.sync 0")
	rowA, colB := k.reg("%r"), k.reg("%r")
	k.op("mad.lo.s32 %s, %s, %d, %s", rowA, ty, dotTile*size, sm) // &As[ty][0]
	k.op("mad.lo.s32 %s, %s, %d, %s", colB, tx, size, sm)         // &Bs[0][tx] - tile offset
	for kk := 0; kk < dotTile; kk++ {
		x, y := k.reg(regClass(t)), k.reg(regClass(t))
		k.op("ld.shared%s %s, [%s+%d]", memType(t), x, rowA, kk*size)
		k.op("ld.shared%s %s, [%s+%d]", memType(t), y, colB, (dotTile*dotTile+kk*dotTile)*size)
		if t.IsFloat() {
			k.op("fma.rn%s %s, %s, %s, %s", ptxType(t), acc, x, y, acc)
		} else {
			k.op("mad.lo%s %s, %s, %s, %s", ptxType(t), acc, x, y, acc)
		}
	}
	k.op("bar.sync 0")
	k.op("add.s32 %s, %s, %d", kt, kt, dotTile)
	k.op("bra %s", loop)
	k.mark(end)
	done := k.label()
	both := k.reg("%p")
	k.op("and.pred %s, %s, %s", both, rowOK, colOK)
	k.op("@!%s bra %s", both, done)
	at := k.reg("%r")
	k.op("mad.lo.s32 %s, %s, %d, %s", at, row, s.n, col)
	k.op("mad.lo.s32 %s, %s, %d, %s", at, bc[0], s.m*s.n, at)
	k.store(c, at, value{acc, t})
	k.mark(done)
	return k, max(1, s.b*tilesM*tilesN), nil
}
