package main

import (
	"path/filepath"
	"testing"
)

// tgmFixture is a Tensogram fixture's path.
func tgmFixture(name string) string { return filepath.Join("..", "..", "tgm", "testdata", name) }

// TestRun_tgm: .tgm files open from the command line by their magic
// whatever their name, with their datasets, message axis and format.
func TestRun_tgm(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	copyFile(t, tgmFixture("forecast.tgm"), filepath.Join(dir, "fc.dat"))
	tests := []struct {
		name   string
		args   []string
		stdout string
	}{
		{"catalog", []string{tgmFixture("forecast.tgm"), "SELECT name, dtype, shape, dim_names, format FROM tet_datasets WHERE name = 't2m'"},
			"name,dtype,shape,dim_names,format\nt2m,f32,\"[4,4,6]\",\"[\"\"message\"\",\"\"latitude\"\",\"\"longitude\"\"]\",tgm\n"},
		{"probe", []string{tgmFixture("forecast.tgm"), "SELECT value FROM t2m WHERE message = 2 AND latitude = 3 AND longitude = 0"},
			"value\n282.76617\n"}, // expected.json's probe at rowid 66 (f32 shown shortest)
		{"renamed .dat", []string{filepath.Join(dir, "fc.dat"), "SELECT count(*) AS n, (SELECT format FROM fc.tet_file) AS f FROM fc.msl"},
			"n,f\n96,tgm\n"},
		{"mixed names", []string{tgmFixture("mixed.tgm"), "SELECT group_concat(name) AS names FROM tet_datasets"},
			"names\n\"a_m0,a_m1,b,c_m1\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, out, errs := runCLI(t, "", tt.args...)
			if code != 0 || out != tt.stdout {
				t.Errorf("exit %d, stdout %q, want %q; stderr %q", code, out, tt.stdout, errs)
			}
		})
	}
}
