package gen_test

import (
	"fmt"

	"github.com/tetsql/tetsql/cmd/tetgen/internal/gen"
)

func ExampleParseDataset() {
	d, err := gen.ParseDataset("grid:f32:4096x4096:256x256:zstd:y,x")
	if err != nil {
		panic(err)
	}
	fmt.Println(d.Name, d.DType, d.Shape, d.Chunk, d.Codec, d.Dims)
	_, err = gen.ParseDataset("grid:f32:4096x4096:256")
	fmt.Println(err != nil)
	// Output:
	// grid f32 [4096 4096] [256 256] zstd [y x]
	// true
}
