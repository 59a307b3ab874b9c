package tetsql_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkGlobOpen opens a glob of 2,000 small files through the driver
// (listing, one open per file to find the datasets, the tables of one
// connection) and, in "count", also counts their rows.
func BenchmarkGlobOpen(b *testing.B) {
	root := b.TempDir()
	for i := range 2000 {
		p := filepath.Join(root, fmt.Sprintf("year=%d/part=%03d/x.tet", 2000+i/100, i%100))
		mkdirAll(b, filepath.Dir(p))
		writeGrids(b, p, grid{name: "t2m", shape: [2]int64{3, 2}, chunks: [2]int64{3, 2}})
	}
	dsn := filepath.ToSlash(root) + "/**/*.tet"
	for _, q := range []string{"", "SELECT count(*) FROM t2m"} {
		name := "connect"
		if q != "" {
			name = "count"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				db, err := sql.Open("tetsql", dsn)
				if err != nil {
					b.Fatal(err)
				}
				conn, err := db.Conn(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				if q != "" {
					var n int
					if err := conn.QueryRowContext(context.Background(), q).Scan(&n); err != nil || n != 12000 {
						b.Fatalf("%s: %d, %v", q, n, err)
					}
				}
				conn.Close()
				db.Close()
			}
		})
	}
}

func mkdirAll(tb testing.TB, dir string) {
	tb.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
}
