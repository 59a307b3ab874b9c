package gen_test

import (
	"fmt"

	"github.com/tetsql/tetsql/cmd/tetgen/internal/gen"
)

func ExampleConfig_AddDataset() {
	var cfg gen.Config
	if err := cfg.AddDataset("grid:f32:4096x4096:256x256:zstd:y,x"); err != nil {
		panic(err)
	}
	d := cfg.Datasets[0]
	fmt.Println(d.Name, d.DType, d.Shape, d.Chunk, d.Codec, d.Dims)
	fmt.Println(cfg.AddDataset("grid:f32:4096x4096:256") != nil)
	// Output:
	// grid f32 [4096 4096] [256 256] zstd [y x]
	// true
}
