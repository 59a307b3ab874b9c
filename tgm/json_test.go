package tgm

import (
	"encoding/json"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/fxamacker/cbor/v2"
)

func TestMetadataJSON(t *testing.T) {
	em, err := cbor.EncOptions{}.EncMode()
	if err != nil {
		t.Fatal(err)
	}
	in := map[any]any{
		"s":     "quote \" backslash \\ newline \n tab \t bell \a é",
		"bytes": []byte{0xde, 0xad, 0x01},
		"nan":   math.NaN(),
		"inf":   math.Inf(1),
		"ninf":  math.Inf(-1),
		"half":  float32(0.5),
		"big":   uint64(math.MaxUint64),
		"neg":   int64(math.MinInt64),
		"nest":  []any{map[any]any{int64(3): "three", int64(-1): true}, nil, false},
		"tag":   cbor.Tag{Number: 1234, Content: "x"},
		"bn":    new(big.Int).Lsh(big.NewInt(1), 70),
	}
	b, err := em.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	// A negative integer beyond int64 (major type 1, argument 2^64 − 1).
	b[0]++ // one more map pair
	b = append(b, 0x63, 'v', 'e', 'r', 0x3B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF)
	v, err := decodeCBOR(b)
	if err != nil {
		t.Fatal(err)
	}
	got := JSON(v)
	want := `{"big":18446744073709551615,"bn":1180591620717411303424,"bytes":"dead01","half":0.5,"inf":"Infinity",` +
		`"nan":"NaN","neg":-9223372036854775808,"nest":[{"-1":true,"3":"three"},null,false],"ninf":"-Infinity",` +
		`"s":"quote \" backslash \\ newline \n tab \t bell \u0007 é","tag":{"tag":1234,"value":"x"},` +
		`"ver":-18446744073709551616}`
	if got != want {
		t.Errorf("JSON\n got %s\nwant %s", got, want)
	}
	if !json.Valid([]byte(got)) {
		t.Error("not valid JSON")
	}
}

// TestConcurrentDecode decodes every object of a file from many
// goroutines at once; each result must equal the sequential one.
func TestConcurrentDecode(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "forecast.tgm"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Scan(data)
	if err != nil {
		t.Fatal(err)
	}
	var objs []*Object
	var want [][]byte
	for mi := range f.Messages {
		for oi := range f.Messages[mi].Objects {
			o := &f.Messages[mi].Objects[oi]
			out, err := o.Decode(nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			objs, want = append(objs, o), append(want, out)
		}
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range 20 {
				i := (g*7 + r) % len(objs)
				out, err := objs[i].Decode(nil, 0)
				if err != nil || string(out) != string(want[i]) {
					t.Errorf("goroutine %d: object %d differs (%v)", g, i, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}
