package b2nd

import "testing"

// FuzzParse: any input either parses into a Frame whose layout keeps its
// promises (checkInvariants, Locate) or fails with an error; never a
// panic, a hang or an allocation sized by an unchecked field. The frame
// layer has its own fuzz test, blosc.FuzzParseFrame.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"attrs_dim_names.b2nd", "special_mixed.b2nd", "rank0.b2nd",
		"empty_axis.b2nd", "caterva_int32.b2nd", "special_value_i2.b2nd", "dtype_be_int32.b2nd"} {
		f.Add(readFixture(f, name))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fr, err := Parse(data)
		if err != nil {
			return
		}
		checkInvariants(t, fr, data)
		for i := range fr.Chunks {
			if _, err := fr.ChunkBytes(i); err != nil {
				t.Fatalf("chunk %d of a parsed frame: %v", i, err)
			}
		}
		// The last element (also of a 0-d array) must land inside the last chunk.
		idx := make([]int64, len(fr.Shape))
		for d := range idx {
			idx[d] = fr.Shape[d] - 1
		}
		if len(fr.Chunks) > 0 {
			c, e, err := fr.Locate(idx)
			if err != nil || c < 0 || c >= int64(len(fr.Chunks)) || e < 0 || (e+1)*fr.Typesize > fr.ChunkSize {
				t.Fatalf("Locate(%v) = %d, %d, %v with %d chunks of %d bytes", idx, c, e, err, len(fr.Chunks), fr.ChunkSize)
			}
		}
	})
}
