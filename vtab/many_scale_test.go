package vtab_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// manyTiny writes n tiny files dir/part=P/f<i>.tet (dataset v, f32 of 10
// elements i*10 … i*10+9, raw), 100 per part directory. One file is
// written by tetcore; the others are its bytes with the values replaced
// (raw chunks sit in the file as they are), which is much faster than n
// durable writes.
func manyTiny(t testing.TB, dir string, n int) {
	t.Helper()
	tmpl := filepath.Join(t.TempDir(), "tmpl.tet")
	spec := tetcore.DatasetSpec{Name: "v", DType: tetcore.F32, Shape: []int64{10}, ChunkShape: []int64{10}, Codec: tetcore.CodecRaw}
	const mark = 1 << 20
	writeTet(t, tmpl, spec, func(k int) float32 { return float32(mark + k) })
	b, err := os.ReadFile(tmpl)
	if err != nil {
		t.Fatal(err)
	}
	vals := func(base int) []byte {
		out := make([]byte, 40)
		for k := range 10 {
			binary.LittleEndian.PutUint32(out[4*k:], math.Float32bits(float32(base+k)))
		}
		return out
	}
	at := bytes.Index(b, vals(mark))
	if at < 0 || bytes.Index(b[at+1:], vals(mark)) >= 0 {
		t.Fatal("the template's values are not found once")
	}
	for i := range n {
		sub := filepath.Join(dir, fmt.Sprintf("part=%02d", i/100))
		if i%100 == 0 {
			if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		copy(b[at:], vals(i*10))
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%04d.tet", i)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func BenchmarkMany2000(b *testing.B) {
	dir := b.TempDir()
	manyTiny(b, dir, 2000)
	for _, q := range []string{"SELECT count(*) FROM m", "SELECT count FROM m_agg", "SELECT sum(value) FROM m WHERE part = '07'"} {
		b.Run(q, func(b *testing.B) {
			for b.Loop() {
				db, _ := openDB(b, nil)
				mustExec(b, db, fmt.Sprintf(`CREATE VIRTUAL TABLE m USING tet_many('%s/**/*.tet', 'v')`, dir))
				mustExec(b, db, fmt.Sprintf(`CREATE VIRTUAL TABLE m_agg USING tet_many('%s/**/*.tet', 'v', 'kind=agg')`, dir))
				var n float64
				if err := db.QueryRow(q).Scan(&n); err != nil {
					b.Fatal(err)
				}
				db.Close()
			}
		})
	}
}
