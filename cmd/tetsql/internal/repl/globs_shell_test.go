package repl_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
)

// many is the glob over testdata/many, as the shell's tests reach it.
var many = filepath.ToSlash(filepath.Join("..", "..", "..", "..", "testdata", "many")) + "/**/*.tet"

// TestGlob_banner: the banner and an interactive .open describe a glob's
// schema by its glob and tables; .open of a glob matching nothing fails
// naming it and attaches nothing.
func TestGlob_banner(t *testing.T) {
	t.Parallel()
	e := newEnv(t, repl.Options{Header: true}, many, ref("sample.tet"))
	var banner bytes.Buffer
	if err := e.sh.Greet(context.Background(), &banner, "v0"); err != nil {
		t.Fatal(err)
	}
	if want := "many: " + many + " — 1 table: t2m\n"; !strings.Contains(banner.String(), want) {
		t.Errorf("banner:\n%s\nlacks %q", banner.String(), want)
	}
	if !strings.Contains(banner.String(), "sample: ") {
		t.Errorf("banner:\n%s\nlacks the file", banner.String())
	}
	in := &fakeLines{lines: []string{
		".open '" + many + "' AS q",
		".open nothing/*/here.tet",
		"SELECT count(*) AS n FROM q.t2m;",
		"SELECT count(*) AS n FROM pragma_database_list WHERE name = 'here';",
		".datasets q",
	}}
	if err := e.sh.Interactive(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	if want := "q: " + many + " — 1 table: t2m\n"; !strings.Contains(e.stdout.String(), want) {
		t.Errorf("stdout after .open:\n%s\nlacks %q", e.stdout, want)
	}
	if !strings.Contains(e.stdout.String(), "n\n18\n") || !strings.Contains(e.stdout.String(), "n\n0\n") {
		t.Errorf("stdout:\n%s\nwant 18 rows in q.t2m and no schema 'here'", e.stdout)
	}
	if want := "q: " + many + " — 1 table: t2m\n  files: SELECT * FROM tet_files('" + many + "')\n"; !strings.HasSuffix(e.stdout.String(), want) {
		t.Errorf("stdout after .datasets q:\n%s\nlacks %q at its end", e.stdout, want)
	}
	if want := "no file matches nothing/*/here.tet"; !strings.Contains(e.stderr.String(), want) {
		t.Errorf("stderr %q lacks %q", e.stderr, want)
	}
}
