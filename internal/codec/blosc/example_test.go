package blosc_test

import (
	"encoding/binary"
	"fmt"

	"github.com/tetsql/tetsql/internal/codec/blosc"
)

// A run-of-value special chunk: an extended header whose special kind is 3,
// then the one int16 value that fills the whole chunk.
func ExampleDecode() {
	chunk := make([]byte, 32, 34)
	chunk[0], chunk[1], chunk[2], chunk[3] = 5, 1, 0x05, 2 // version, versionlz, flags, typesize
	binary.LittleEndian.PutUint32(chunk[4:], 8)            // nbytes: four int16
	binary.LittleEndian.PutUint32(chunk[12:], 34)          // cbytes
	chunk[31] = 3 << 4                                     // special kind: run of one value
	chunk = binary.LittleEndian.AppendUint16(chunk, 0xbeef)

	h, err := blosc.ParseHeader(chunk)
	if err != nil {
		panic(err)
	}
	dst := make([]byte, h.NBytes)
	if err := blosc.Decode(dst, chunk); err != nil {
		panic(err)
	}
	fmt.Println(h.Special == blosc.SpecialValue, h.TypeSize, dst)

	// A chunk that says it is longer than the bytes given is refused.
	_, err = blosc.ParseHeader(chunk[:33])
	fmt.Println(err)
	// Output:
	// true 2 [239 190 239 190 239 190 239 190]
	// blosc: corrupt chunk: cbytes 34 but only 33 bytes available
}
