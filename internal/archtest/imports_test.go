package archtest

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/tetsql/tetsql"

// pkg is one package of the module: its directory relative to the root
// and the import paths its non-test files import.
type pkg struct {
	dir     string
	imports []string
}

// root is the module's root directory.
func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("module root not found from %s: %v", dir, err)
	}
	return dir
}

// modulePackages parses the imports of every non-test Go file of the
// module, by package import path.
func modulePackages(t *testing.T) map[string]*pkg {
	t.Helper()
	base := root(t)
	out := map[string]*pkg{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(base, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != base && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(base, filepath.Dir(path))
		ip := module
		if rel != "." {
			ip += "/" + filepath.ToSlash(rel)
		}
		p := out[ip]
		if p == nil {
			p = &pkg{dir: rel}
			out[ip] = p
		}
		for _, im := range f.Imports {
			s, _ := strconv.Unquote(im.Path.Value)
			if !slices.Contains(p.imports, s) {
				p.imports = append(p.imports, s)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// deps returns every package path p imports, directly or through other
// packages of the module (external packages are listed, not followed).
func deps(pkgs map[string]*pkg, p string) []string {
	seen := map[string]bool{}
	var walk func(string)
	walk = func(q string) {
		pk := pkgs[q]
		if pk == nil {
			return
		}
		for _, im := range pk.imports {
			if !seen[im] {
				seen[im] = true
				walk(im)
			}
		}
	}
	walk(p)
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// formatPackages are the packages that implement array.Format.
var formatPackages = []string{"tetcore", "b2nd", "tgm", "internal/memformat"}

func TestImportRules(t *testing.T) {
	pkgs := modulePackages(t)
	in := func(p string) string { return module + "/" + p }
	isFormat := func(path string) bool {
		for _, f := range formatPackages {
			if path == in(f) {
				return true
			}
		}
		return false
	}
	for path, p := range pkgs {
		all := deps(pkgs, path)
		rel := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
		for _, im := range p.imports {
			switch {
			case im == "modernc.org/sqlite/vtab":
				t.Errorf("%s imports %s: nothing may (one binding: internal/sqlitevt)", path, im)
			case (im == "modernc.org/sqlite/lib" || im == "modernc.org/libc") && rel != "internal/sqlitevt":
				t.Errorf("%s imports %s: only internal/sqlitevt may", path, im)
			}
		}
		switch {
		case rel == "array" || rel == "planner" || rel == "internal/glob":
			for _, im := range all {
				if !isStd(im) && !(rel == "planner" && im == in("array")) {
					t.Errorf("%s depends on %s: it may import only the standard library (planner: and array)", rel, im)
				}
			}
		case isFormat(path):
			for _, im := range all {
				if strings.HasPrefix(im, "modernc.org/sqlite") || (strings.HasPrefix(im, module) && im != in("array") && im != in("internal/mapfile") && !strings.HasPrefix(im, in("internal/codec"))) {
					t.Errorf("format package %s depends on %s: formats import array, internal/mapfile and codec libraries only", rel, im)
				}
			}
		case rel == "vtab" || rel == "internal/scan":
			for _, im := range all {
				if isFormat(im) {
					t.Errorf("%s depends on format package %s: the root hands it the format list", rel, im)
				}
			}
		}
		if rel == "vtab" && slices.Contains(p.imports, "unsafe") {
			t.Errorf("vtab imports unsafe: unsafe code about SQLite belongs in internal/sqlitevt")
		}
	}
	for _, must := range []string{"array", "planner", "tetcore", "vtab", "internal/scan", "internal/sqlitevt"} {
		if pkgs[in(must)] == nil {
			t.Errorf("package %s is missing", must)
		}
	}
}

// TestImportRules_tests holds test files to the binding rules too: a test
// that reached SQLite's C API or modernc's vtab package on its own would
// test a binding the product does not use.
func TestImportRules_tests(t *testing.T) {
	base := root(t)
	fset := token.NewFileSet()
	err := filepath.WalkDir(base, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != base && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(base, path)
		for _, im := range f.Imports {
			s, _ := strconv.Unquote(im.Path.Value)
			switch {
			case s == "modernc.org/sqlite/vtab":
				t.Errorf("%s imports %s: nothing may", rel, s)
			case (s == "modernc.org/sqlite/lib" || s == "modernc.org/libc") && filepath.Dir(rel) != filepath.FromSlash("internal/sqlitevt"):
				t.Errorf("%s imports %s: only internal/sqlitevt may", rel, s)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
