package archtest

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxLines is the most lines a non-test Go file may have: files hold one
// concern each, around 300 lines.
const maxLines = 400

// goFiles lists the module's non-test Go files, relative to the root.
func goFiles(t *testing.T) []string {
	t.Helper()
	base := root(t)
	var out []string
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
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			rel, _ := filepath.Rel(base, path)
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestFileSizes(t *testing.T) {
	base := root(t)
	for _, f := range goFiles(t) {
		b, err := os.ReadFile(filepath.Join(base, f))
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(b, []byte("\n")); n > maxLines {
			t.Errorf("%s has %d lines (at most %d: split it by concern)", f, n, maxLines)
		}
	}
}

// TestExportedDocumented checks that every exported top-level name of a
// non-main package has a doc comment (a grouped const or var may be
// documented by its group's comment), and that package comments do not
// point outside the repository.
func TestExportedDocumented(t *testing.T) {
	base := root(t)
	fset := token.NewFileSet()
	for _, rel := range goFiles(t) {
		f, err := parser.ParseFile(fset, filepath.Join(base, rel), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if f.Doc != nil && (strings.Contains(f.Doc.Text(), "../") || strings.Contains(f.Doc.Text(), "shared/")) {
			t.Errorf("%s: package doc points outside the repository: %q", rel, f.Doc.Text())
		}
		if f.Name.Name == "main" {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Name.IsExported() && d.Doc == nil && exportedRecv(d) {
					t.Errorf("%s: %s is exported but undocumented", fset.Position(d.Pos()), d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() && s.Doc == nil && d.Doc == nil {
							t.Errorf("%s: type %s is exported but undocumented", fset.Position(s.Pos()), s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() && s.Doc == nil && s.Comment == nil && d.Doc == nil {
								t.Errorf("%s: %s is exported but undocumented", fset.Position(n.Pos()), n.Name)
							}
						}
					}
				}
			}
		}
	}
}

// exportedRecv reports whether d is a function or a method of an exported
// type (methods of unexported types are not part of the API).
func exportedRecv(d *ast.FuncDecl) bool {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return true
	}
	typ := d.Recv.List[0].Type
	for {
		switch x := typ.(type) {
		case *ast.StarExpr:
			typ = x.X
		case *ast.IndexExpr:
			typ = x.X
		case *ast.IndexListExpr:
			typ = x.X
		case *ast.Ident:
			return x.IsExported()
		default:
			return true
		}
	}
}
