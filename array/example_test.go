package array_test

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/tetsql/tetsql/array"
)

// The geometry of a 5×7 array in chunks of 2×3: a 3×3 grid whose last row
// and column of chunks are trimmed at the array's edges.
func ExampleInfo() {
	in := &array.Info{Name: "t", DType: array.F32, Shape: []int64{5, 7}, ChunkShape: []int64{2, 3},
		DimNames: []string{"time", ""}}
	if err := in.Validate(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("rank", in.Rank(), "grid", in.Grid(), "chunks", in.ChunkCount(), "elements", in.Elements())
	fmt.Println("axes", in.DimName(0), in.DimName(1))
	start, extent := make([]int64, 2), make([]int64, 2)
	for _, id := range []int64{0, 2, 8} {
		n := in.ChunkBox(id, start, extent)
		fmt.Printf("chunk %d: start %v extent %v, %d elements, %d bytes\n", id, start, extent, n, n*int64(in.DType.Size()))
	}
	// Output:
	// rank 2 grid [3 3] chunks 9 elements 35
	// axes time d1
	// chunk 0: start [0 0] extent [2 3], 6 elements, 24 bytes
	// chunk 2: start [0 6] extent [2 1], 2 elements, 8 bytes
	// chunk 8: start [4 6] extent [1 1], 1 elements, 4 bytes
}

// Elements are little-endian; DType reads them whatever their type.
func ExampleDType() {
	b := make([]byte, 8)
	binary.LittleEndian.PutUint16(b, array.Float32ToHalf(-2.5))
	binary.LittleEndian.PutUint16(b[2:], 0x7c00) // +Inf
	fmt.Println(array.F16, array.F16.Size(), array.F16.IsFloat(), array.F16.Float64(b, 0), array.F16.Float64(b, 1))

	binary.LittleEndian.PutUint64(b, math.MaxUint64)
	fmt.Println(array.U64, array.U64.Uint64(b, 0), array.I64.Int64(b, 0), array.I8.Int64(b, 7), array.U8.Int64(b, 7))

	d, err := array.ParseDType("i16")
	fmt.Println(d, d.IsSigned(), err)
	_, err = array.ParseDType("c64")
	fmt.Println(err, array.DType(42))
	// Output:
	// f16 2 true -2.5 +Inf
	// u64 18446744073709551615 -1 -1 255
	// i16 true <nil>
	// array: unknown dtype "c64" dtype(42)
}
