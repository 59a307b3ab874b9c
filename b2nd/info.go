package b2nd

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"

	"github.com/tetsql/tetsql/array"
)

// Info describes the frame's array as package array sees it, named name:
// dtype, shape, chunk shape, dim_names, and every attribute as JSON
// (binary values as a hex string; NaN and infinities, which JSON lacks, as
// the strings "NaN", "Infinity" and "-Infinity"). The block shape has no
// place in array.Info: it matters only to decoding inside a chunk.
// Big-endian data is not reflected either: the element bytes of a frame
// with Layout.BigEndian set must be swapped before being handed out as
// array data. It fails where array.Info does (rank above array.MaxRank).
func (f *Frame) Info(name string) (array.Info, error) {
	in := array.Info{Name: name, DType: f.DType, Shape: f.Shape, ChunkShape: f.ChunkShape, DimNames: f.DimNames}
	if len(f.VLMeta) > 0 {
		in.Attrs = make(map[string]string, len(f.VLMeta))
		for k, v := range f.VLMeta {
			js, err := json.Marshal(jsonable(v))
			if err != nil {
				return array.Info{}, fmt.Errorf("b2nd: attribute %q as JSON: %w", k, err)
			}
			in.Attrs[k] = string(js)
		}
	}
	if err := in.Validate(); err != nil {
		return array.Info{}, fmt.Errorf("b2nd: %w", err)
	}
	return in, nil
}

// jsonable rewrites a decoded msgpack value into one encoding/json
// accepts: []byte as hex, non-finite floats as strings.
func jsonable(v any) any {
	switch x := v.(type) {
	case []byte:
		return hex.EncodeToString(x)
	case float64:
		switch {
		case math.IsNaN(x):
			return "NaN"
		case math.IsInf(x, 1):
			return "Infinity"
		case math.IsInf(x, -1):
			return "-Infinity"
		}
		return x
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonable(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsonable(e)
		}
		return out
	}
	return v
}
