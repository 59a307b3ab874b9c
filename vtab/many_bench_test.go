package vtab_test

import (
	"fmt"
	"testing"
)

// BenchmarkManyFiles splits the cost of a glob of tiny files into
// listing (CREATE VIRTUAL TABLE, once per table) and a query (every scan
// opens and closes each file it keeps), for 200 and 2,000 files of the
// same tree, so the per-file cost can be read off: docs/PERFORMANCE.md,
// "Many files".
func BenchmarkManyFiles(b *testing.B) {
	dir := b.TempDir()
	manyTiny(b, dir, 2000)
	globs := []struct {
		files int
		glob  string
	}{
		{200, dir + "/part=0[01]/*.tet"},
		{2000, dir + "/**/*.tet"},
	}
	for _, g := range globs {
		create := []string{
			fmt.Sprintf(`CREATE VIRTUAL TABLE m USING tet_many('%s', 'v')`, g.glob),
			fmt.Sprintf(`CREATE VIRTUAL TABLE m_agg USING tet_many('%s', 'v', 'kind=agg')`, g.glob),
		}
		b.Run(fmt.Sprintf("files=%d/create", g.files), func(b *testing.B) {
			db, _ := openDB(b, nil)
			for b.Loop() {
				mustExec(b, db, create[0])
				mustExec(b, db, create[1])
				mustExec(b, db, `DROP TABLE m`)
				mustExec(b, db, `DROP TABLE m_agg`)
			}
		})
		for _, q := range []struct{ name, sql string }{
			{"cells_count", `SELECT count(*) FROM m`},
			{"agg_count", `SELECT count FROM m_agg`},
		} {
			b.Run(fmt.Sprintf("files=%d/%s", g.files, q.name), func(b *testing.B) {
				db, _ := openDB(b, nil)
				mustExec(b, db, create[0])
				mustExec(b, db, create[1])
				for b.Loop() {
					var n int64
					if err := db.QueryRow(q.sql).Scan(&n); err != nil {
						b.Fatal(err)
					}
					if n != int64(10*g.files) {
						b.Fatalf("%s: %d, want %d", q.sql, n, 10*g.files)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(g.files), "ns/file")
			})
		}
	}
}
