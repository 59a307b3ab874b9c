package tgm

import (
	"path/filepath"
	"testing"
)

// TestRegeneratedDatasets makes the fixture kinds with the reference
// Python package (another seed, shapes and message counts than the
// committed files) and holds the datasets built from them to the
// generator's expected.json, then runs the conformance test on them.
// It skips, naming what is missing, without python3 and tensogram.
func TestRegeneratedDatasets(t *testing.T) {
	py := needTensogram(t)
	dir := t.TempDir()
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	params := `{"seed": 23, "grid": [3, 11], "steps": 5, "many": 7, "sp_grid": [5, 17], "profile": 13}`
	runPython(t, py, "-c", regenScript, testdata, dir, params)
	checkDatasetsDir(t, dir)
	checkConformanceDir(t, dir)
}
