package sqlitevt_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImports_oneBinding reads the module's import graph: only this
// package may import modernc.org/sqlite/lib or modernc.org/libc, nothing
// may import modernc.org/sqlite/vtab (two bindings once gave different
// answers to the same query), and vtab imports no unsafe.
func TestImports_oneBinding(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goTool, "list", "-test", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "github.com/tetsql/tetsql/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const self = "github.com/tetsql/tetsql/internal/sqlitevt"
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.Fields(strings.ReplaceAll(f[0], "[", " "))[0] // "p [p.test]" → p
		for _, imp := range f[1:] {
			switch {
			case imp == "modernc.org/sqlite/vtab":
				t.Errorf("%s imports %s", f[0], imp)
			case (imp == "modernc.org/sqlite/lib" || imp == "modernc.org/libc") && pkg != self:
				t.Errorf("%s imports %s: only %s may", f[0], imp, self)
			case imp == "unsafe" && pkg == "github.com/tetsql/tetsql/vtab":
				t.Errorf("%s imports unsafe", f[0])
			}
		}
	}
}
