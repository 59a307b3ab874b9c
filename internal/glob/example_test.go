package glob_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/tetsql/tetsql/internal/glob"
)

func ExampleExpand() {
	root, _ := os.MkdirTemp("", "glob")
	defer os.RemoveAll(root)
	for _, f := range []string{"year=2024/month=01/a.tet", "year=2024/month=02/a.tet", "notes.txt"} {
		p := filepath.Join(root, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, nil, 0o644)
	}
	ms, err := glob.Expand(root+"/**/*.tet", 100)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range ms {
		rel, _ := filepath.Rel(root, m.Path)
		fmt.Println(rel, m.Hive)
	}
	// Output:
	// year=2024/month=01/a.tet [{year 2024} {month 01}]
	// year=2024/month=02/a.tet [{year 2024} {month 02}]
}
