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
	for _, bad := range []string{"a.tet?bogus=1", "a.tet?max_chunk_bytes=lots", "a.tet?max_chunk_bytes=1&max_chunk_bytes=2", "x=a.tet;x=b.tet"} {
		cfg, err := tetsql.ParseDSN(bad)
		if err == nil {
			_, err = cfg.Aliases()
		}
		if err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if _, err := sql.Open("tetsql", "a.tet?nope=1"); err == nil || !strings.Contains(err.Error(), `unknown DSN option "nope"`) {
		t.Errorf("sql.Open with a bad option: %v", err)
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
	db, err := sql.Open("tetsql", ref("sample.tet"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
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
