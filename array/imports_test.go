package array_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImports: array (and arraytest) and planner are leaves, importing
// only the standard library and, for planner and arraytest, array itself;
// the test-only format internal/memformat, having no codec, imports
// nothing else either.
func TestImports(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go list")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool")
	}
	for _, pkg := range []string{"github.com/tetsql/tetsql/array", "github.com/tetsql/tetsql/array/arraytest",
		"github.com/tetsql/tetsql/planner", "github.com/tetsql/tetsql/internal/memformat"} {
		out, err := exec.Command(goTool, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", pkg, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			if dep != pkg && dep != "github.com/tetsql/tetsql/array" {
				t.Errorf("%s imports %s: only the standard library and array are allowed", pkg, dep)
			}
		}
	}
}
