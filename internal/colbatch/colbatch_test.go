package colbatch_test

import (
	"testing"

	"github.com/tetsql/tetsql/internal/colbatch"
)

// TestVec: every kind keeps one entry per row in its slice, a NULL as
// zero, and Reset empties a vector but keeps its kind.
func TestVec(t *testing.T) {
	tests := []struct {
		kind   colbatch.Kind
		append func(v *colbatch.Vec)
		len    func(v *colbatch.Vec) int
	}{
		{colbatch.Int64, func(v *colbatch.Vec) { v.AppendInt64(-7) }, func(v *colbatch.Vec) int { return len(v.I64) }},
		{colbatch.Uint64, func(v *colbatch.Vec) { v.AppendInt64(-1) }, func(v *colbatch.Vec) int { return len(v.I64) }},
		{colbatch.Float64, func(v *colbatch.Vec) { v.AppendFloat64(2.5) }, func(v *colbatch.Vec) int { return len(v.F64) }},
		{colbatch.Float32, func(v *colbatch.Vec) { v.AppendFloat32(1.5) }, func(v *colbatch.Vec) int { return len(v.F32) }},
		{colbatch.Text, func(v *colbatch.Vec) { v.AppendText("a") }, func(v *colbatch.Vec) int { return len(v.Str) }},
	}
	for _, tc := range tests {
		t.Run(tc.kind.String(), func(t *testing.T) {
			v := colbatch.Vec{Kind: tc.kind}
			tc.append(&v)
			v.AppendNull()
			tc.append(&v)
			if v.Len() != 3 || tc.len(&v) != 3 || !v.Null[1] || v.Null[0] || v.Null[2] {
				t.Fatalf("after value, NULL, value: %+v", v)
			}
			switch tc.kind {
			case colbatch.Int64, colbatch.Uint64:
				if v.I64[1] != 0 {
					t.Errorf("NULL holds %d", v.I64[1])
				}
			case colbatch.Text:
				if v.Str[1] != "" {
					t.Errorf("NULL holds %q", v.Str[1])
				}
			}
			v.Truncate(5) // longer: nothing changes
			if v.Len() != 3 {
				t.Errorf("Truncate(5) of 3 rows: %d", v.Len())
			}
			v.Truncate(1)
			if v.Len() != 1 || tc.len(&v) != 1 || v.Null[0] {
				t.Errorf("after Truncate(1): %+v", v)
			}
			v.Reset()
			if v.Len() != 0 || tc.len(&v) != 0 || v.Kind != tc.kind {
				t.Errorf("after Reset: %+v", v)
			}
		})
	}
}
