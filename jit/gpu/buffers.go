package gpu

import (
	"fmt"
	"unsafe"

	"github.com/jitlint/jitlint/jit/ir"
)

// byteSize is the device size of an array of aval (at least one byte, so
// that empty arrays still get an address).
func byteSize(a ir.Aval) int { return max(1, a.Size()*a.DType.ItemSize()) }

// hostBytes views a host buffer's elements as bytes (little-endian hosts, as
// CUDA requires). Bools are one byte, 0 or 1, as on the device.
func hostBytes(b *ir.Buffer) ([]byte, error) {
	switch d := b.Data.(type) {
	case []float32:
		if b.DType != ir.Float32 {
			return nil, fmt.Errorf("dtype %v is not supported by the gpu backend", b.DType)
		}
		return asBytes(d), nil
	case []float64:
		return asBytes(d), nil
	case []int32:
		return asBytes(d), nil
	case []int64:
		return asBytes(d), nil
	case []bool:
		return asBytes(d), nil
	}
	return nil, fmt.Errorf("buffer data of type %T is not supported", b.Data)
}

// asBytes reinterprets a slice's memory.
func asBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(zero)))
}
