package vtab_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// manyTiny writes n tiny files dir/part=P/f<i>.tet (dataset v, f32 of 10
// elements i*10 … i*10+9), 100 per part directory.
func manyTiny(t testing.TB, dir string, n int) {
	t.Helper()
	for i := range n {
		sub := filepath.Join(dir, fmt.Sprintf("part=%02d", i/100))
		if i%100 == 0 {
			if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		spec := tetcore.DatasetSpec{Name: "v", DType: tetcore.F32, Shape: []int64{10}, ChunkShape: []int64{10}, Codec: tetcore.CodecRaw}
		writeTet(t, filepath.Join(sub, fmt.Sprintf("f%04d.tet", i)), spec, func(k int) float32 { return float32(i*10 + k) })
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
