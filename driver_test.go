package tetsql_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/tetcore"
)

func ref(name string) string { return filepath.Join("testdata", "reference", name) }

func TestDSN(t *testing.T) {
	t.Parallel()
	cfg, err := tetsql.ParseDSN("a.tet;era5=/x/y.tet;9lives-x.tet;a.tet?max_chunk_bytes=64MiB")
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Files) != 4 || cfg.Files[1].Alias != "era5" || cfg.Files[1].Path != "/x/y.tet" || cfg.MaxChunkBytes != 64<<20 {
		t.Fatalf("%+v", cfg)
	}
	aliases, err := cfg.Aliases()
	if err != nil || strings.Join(aliases, ",") != "a,era5,t_9lives_x,a_2" {
		t.Fatalf("aliases %v %v", aliases, err)
	}
	cfg, err = tetsql.ParseDSN(" a.tet ; b.tet ?read_ahead=8&decode_parallelism=3&max_chunk_bytes=1GB&time_labels=1&read_ahead_bytes=64MiB")
	if err != nil || len(cfg.Files) != 2 || cfg.Files[1].Path != "b.tet" || cfg.ReadAhead != 8 || cfg.DecodeParallelism != 3 || cfg.MaxChunkBytes != 1e9 || !cfg.TimeLabels || cfg.ReadAheadBytes != 64<<20 {
		t.Fatalf("%+v %v", cfg, err)
	}
	// read_ahead=0 is off (-1 in Config, where 0 is automatic); alone,
	// decode_parallelism sets the goroutines of automatic read-ahead.
	if cfg, err := tetsql.ParseDSN("a.tet?read_ahead=0"); err != nil || cfg.ReadAhead != -1 {
		t.Fatalf("read_ahead=0: %+v %v", cfg, err)
	}
	if cfg, err := tetsql.ParseDSN("a.tet?decode_parallelism=2"); err != nil || cfg.ReadAhead != 0 || cfg.DecodeParallelism != 2 {
		t.Fatalf("decode_parallelism alone: %+v %v", cfg, err)
	}
	if cfg, err := tetsql.ParseDSN("a.tet?mem_limit=3GiB"); err != nil || cfg.MemLimit != 3<<30 {
		t.Fatalf("mem_limit: %+v %v", cfg, err)
	}
	for bad, msg := range map[string]string{
		"a.tet?bogus=1":                               `unknown DSN option "bogus" (known: max_chunk_bytes, read_ahead, read_ahead_bytes, decode_parallelism, cache_budget, time_labels, agg_rewrite, mem_limit, safe, statement_timeout, max_rows, on_error)`,
		"a.tet?max_chunk_bytes=lots":                  `max_chunk_bytes="lots": want a positive size`,
		"a.tet?max_chunk_bytes=0":                     `max_chunk_bytes="0"`,
		"a.tet?max_chunk_bytes=1&max_chunk_bytes=2":   "max_chunk_bytes given 2 times",
		"x=a.tet;x=b.tet":                             `alias "x" used twice`,
		"a.tet?read_ahead=-1":                         `read_ahead="-1": want a number of chunks from 0 to 64`,
		"a.tet?read_ahead=65":                         `read_ahead="65"`,
		"a.tet?read_ahead=2x":                         `read_ahead="2x"`,
		"a.tet?decode_parallelism=0&read_ahead=2":     `decode_parallelism="0": want a positive number`,
		"a.tet?decode_parallelism=2&read_ahead=0":     "decode_parallelism=2 needs read-ahead (read_ahead=0 turns it off)",
		"a.tet?decode_parallelism=3&read_ahead=2":     "decode_parallelism=3 exceeds read_ahead=2",
		"a.tet?cache_budget=lots":                     `cache_budget="lots": want a size`,
		"a.tet?cache_budget=-1":                       `cache_budget="-1": want a size`,
		"a.tet?read_ahead_bytes=0":                    `read_ahead_bytes="0": want a positive size`,
		"a.tet?mem_limit=0":                           `mem_limit="0": want a positive size`,
		"a.tet?mem_limit=-1GiB":                       `mem_limit="-1GiB": want a positive size`,
		"a.tet?read_ahead=1;b.tet":                    "DSN options",
		"a.tet?read_ahead=1&read_ahead=1&read_ahead=": "read_ahead given 3 times",
		"a.tet?time_labels=maybe":                     `time_labels="maybe": want true or false`,
	} {
		cfg, err := tetsql.ParseDSN(bad)
		if err == nil {
			_, err = cfg.Aliases()
		}
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: error %v, want one containing %q", bad, err, msg)
		}
		// sql.Open reports the same error, before any file is touched.
		if _, err := sql.Open("tetsql", bad); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("sql.Open(%q): %v", bad, err)
		}
	}
	for _, cfg := range []tetsql.Config{{MaxChunkBytes: -1}, {ReadAhead: 100}, {ReadAhead: -1, DecodeParallelism: 1}, {DecodeParallelism: 65}, {ReadAhead: 1, DecodeParallelism: 2}, {ReadAheadBytes: -1}} {
		if _, err := tetsql.NewConnector(cfg); err == nil {
			t.Errorf("NewConnector(%+v) accepted", cfg)
		}
	}
}

func TestDriver_queriesAcrossPooledConnections(t *testing.T) {
	t.Parallel()
	db, err := sql.Open("tetsql", ref("sample.tet")+";u8="+ref("multichunk_u8.tet"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(4)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				var s1, s2 float64
				err := db.QueryRow("SELECT (SELECT sum(value) FROM temperature), (SELECT sum(value) FROM u8.a WHERE d1 >= 1)").Scan(&s1, &s2)
				if err != nil || s1 != 21 || s2 != 2+3+5+6 {
					errs <- errors.Join(err, errors.New("bad sums"))
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func TestDriver_openErrorNamesFile(t *testing.T) {
	t.Parallel()
	db, err := sql.Open("tetsql", "testdata/does-not-exist.tet")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Ping()
	if err == nil || !strings.Contains(err.Error(), "does-not-exist.tet") {
		t.Fatalf("ping: %v", err)
	}
}

func TestDriver_scanStatsAndPlainSQLite(t *testing.T) {
	t.Parallel()
	_, conn := openConn(t, ref("sample.tet")+"?agg_rewrite=false") // a cells scan, not its _agg rewrite
	ctx := context.Background()
	var n int
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM temperature WHERE d1 = 2").Scan(&n); err != nil || n != 2 {
		t.Fatalf("count %d %v", n, err)
	}
	scans, err := tetsql.Scans(ctx, conn)
	if err != nil || len(scans) != 1 || scans[0].ChunksDecoded != 1 || scans[0].ChunksTotal != 2 || scans[0].Rows != 2 {
		t.Fatalf("scans %+v %v", scans, err)
	}
	var js string
	if err := conn.QueryRowContext(ctx, "SELECT tet_last_scan()").Scan(&js); err != nil || !strings.Contains(js, `"chunks_decoded":1`) {
		t.Fatalf("tet_last_scan %q %v", js, err)
	}
	for _, q := range []string{
		"CREATE TEMP TABLE copy AS SELECT * FROM temperature",
		"ATTACH ':memory:' AS scratch",
		"CREATE TABLE scratch.t(x)",
		"INSERT INTO scratch.t SELECT value FROM temperature",
	} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := conn.QueryRowContext(ctx, "SELECT (SELECT count(*) FROM copy) + (SELECT sum(x) FROM scratch.t)").Scan(&n); err != nil || n != 27 {
		t.Fatalf("plain SQLite: %d %v", n, err)
	}
}

var _ = tetcore.F32

func TestDriver_cacheBudgetServesRepeatedQueries(t *testing.T) {
	t.Parallel()
	path := writeZstdGrid(t)
	// 16×16×8 = 2 KiB per chunk: a 5 KiB budget keeps two chunks.
	run := openCounting(t, path+"?cache_budget=5KiB")
	const q = "SELECT sum(value) FROM z WHERE d0 < 16 AND d1 < 32" // 2 chunks
	if s := run(q); s.ChunksDecoded != 2 || s.CacheHits != 0 || s.BytesDecoded != 4096 {
		t.Fatalf("first: %+v", s)
	}
	if s := run(q); s.ChunksDecoded != 2 || s.CacheHits != 2 || s.BytesDecoded != 0 {
		t.Fatalf("second: %+v", s)
	}
	// The cache is full: two other chunks read once do not evict the
	// cached ones (a one-pass scan never flushes it); read twice, they do.
	const other = "SELECT sum(value) FROM z WHERE d0 >= 48 AND d1 >= 32"
	run(other)
	if s := run(q); s.CacheHits != 2 {
		t.Fatalf("two other chunks read once evicted the cached ones: %+v", s)
	}
	run(other)
	if s := run(q); s.CacheHits != 0 {
		t.Fatalf("after eviction: %+v", s)
	}
}

// The default configuration caches decoded chunks (DefaultCacheBudget);
// cache_budget=0 and a negative Config.CacheBudget turn the cache off.
// The cache belongs to the open file: every connection reading it shares it.
func TestDriver_cacheBudgetDefault(t *testing.T) {
	t.Parallel()
	const q = "SELECT sum(value) FROM z WHERE d0 < 16 AND d1 < 32" // 2 chunks
	for _, tc := range []struct {
		name, opts string
		hits       int64
	}{{"default", "", 2}, {"cache_budget=0", "?cache_budget=0", 0}} {
		t.Run(tc.name, func(t *testing.T) {
			dsn := writeZstdGrid(t) + tc.opts
			run := openCounting(t, dsn)
			run(q)
			if s := run(q); s.CacheHits != tc.hits {
				t.Fatalf("second: %+v, want %d cache hits", s, tc.hits)
			}
			// Another database and connection on the file shares the cache.
			if s := openCounting(t, dsn)(q); s.CacheHits != tc.hits {
				t.Fatalf("other connection: %+v, want %d cache hits", s, tc.hits)
			}
		})
	}
	cfg, err := tetsql.ParseDSN("a.tet?cache_budget=0")
	if err != nil || cfg.CacheBudget >= 0 {
		t.Fatalf("cache_budget=0 parses to %d %v, want a negative CacheBudget (none)", cfg.CacheBudget, err)
	}
	connector, err := tetsql.NewConnector(tetsql.Config{Files: []tetsql.FileSpec{{Path: writeZstdGrid(t)}}, CacheBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(connector)
	defer db.Close()
	var s float64
	for range 2 {
		if err := db.QueryRow("SELECT sum(value) FROM z.z WHERE d0 < 16").Scan(&s); err != nil {
			t.Fatal(err)
		}
	}
	conn, _ := db.Conn(context.Background())
	defer conn.Close()
	if err := conn.QueryRowContext(context.Background(), "SELECT sum(value) FROM z.z WHERE d0 < 16").Scan(&s); err != nil {
		t.Fatal(err)
	}
	if sc, _ := tetsql.Scans(context.Background(), conn); len(sc) == 0 || sc[len(sc)-1].CacheHits != 0 {
		t.Fatalf("CacheBudget -1: %+v, want no cache hits", sc)
	}
}

// writeZstdGrid writes a 64×64 f64 zstd dataset "z" in 16×16 chunks.
func writeZstdGrid(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "z.tet")
	w, _ := tetcore.Create(path)
	if err := w.AddDataset(tetcore.DatasetSpec{Name: "z", DType: tetcore.F64, Shape: []int64{64, 64},
		ChunkShape: []int64{16, 16}, Codec: tetcore.CodecZstd}); err != nil {
		t.Fatal(err)
	}
	data := make([]byte, 64*64*8)
	for i := range data {
		data[i] = byte(i % 7)
	}
	if err := w.WriteDataset(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// openCounting opens dsn on one connection and returns a function running
// a one-value query on it and returning the query's scan counters.
func openCounting(t *testing.T, dsn string) func(q string) tetsql.ScanStats {
	t.Helper()
	db, err := sql.Open("tetsql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(); db.Close() })
	return func(q string) tetsql.ScanStats {
		t.Helper()
		var s float64
		if err := conn.QueryRowContext(ctx, q).Scan(&s); err != nil {
			t.Fatal(err)
		}
		sc, _ := tetsql.Scans(ctx, conn)
		return sc[len(sc)-1]
	}
}
