package memformat_test

import (
	"fmt"

	"github.com/tetsql/tetsql/internal/memformat"
)

// A file of the test format: one labelled array, cut into two chunks.
func Example() {
	src, err := memformat.Parse([]byte(memformat.Magic + `{"arrays": [{"name": "t", "dtype": "i32",
		"shape": [2, 3], "chunk_shape": [2, 2], "dim_names": ["y", "x"],
		"values": [1, 2, 3, 4, 5, 6]}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer src.Close()
	a := src.Arrays()[0]
	in := a.Info()
	fmt.Println(in.Name, in.DType, in.Shape, "grid", in.Grid())
	for id := range in.ChunkCount() {
		b, _ := a.ReadChunk(id, nil)
		var vals []int64
		for i := range len(b) / in.DType.Size() {
			vals = append(vals, in.DType.Int64(b, i))
		}
		fmt.Println("chunk", id, vals)
	}
	// Output:
	// t i32 [2 3] grid [1 2]
	// chunk 0 [1 2 4 5]
	// chunk 1 [3 6]
}
