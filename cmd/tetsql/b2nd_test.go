package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// b2nd is a Blosc2 NDim fixture (a file, or a sparse-frame directory).
func b2nd(name string) string { return filepath.Join("..", "..", "b2nd", "testdata", name) }

// TestRun_b2nd: .b2nd files and sparse-frame directories open from the
// command line and with .open, by their magic whatever their name, and
// answer queries; a b2nd file cannot be queried under another format's
// name.
func TestRun_b2nd(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	copyFile(t, b2nd("rank2.b2nd"), filepath.Join(dir, "grid.dat"))
	copyFile(t, b2nd("rank2.b2nd"), filepath.Join(dir, "noext"))
	tests := []struct {
		name   string
		args   []string
		stdout string
	}{
		{"query", []string{b2nd("attrs_dim_names.b2nd"),
			"SELECT count(*) AS n, min(time) AS t0, max(level) AS l1, (SELECT format FROM tet_file) AS f FROM attrs_dim_names"},
			"n,t0,l1,f\n72,0,2,b2nd\n"},
		{"probe by dim names", []string{b2nd("attrs_dim_names.b2nd"),
			"SELECT time, station, level, value FROM attrs_dim_names WHERE (time, station, level) IN (VALUES (0, 0, 0), (5, 3, 2))"},
			"time,station,level,value\n0,0,0,60.0\n5,3,2,127.81218\n"}, // expected.json's probes (f32 shown shortest)
		{"catalog", []string{b2nd("rank3.b2nd"), "SELECT name, dtype, shape, format FROM tet_datasets"},
			"name,dtype,shape,format\nrank3,f32,\"[5,6,7]\",b2nd\n"},
		{"sparse directory", []string{b2nd("sparse_frame.b2nd"), "SELECT count(*) AS n, sum(value) AS s FROM sparse_frame"},
			"n,s\n99,2685\n"},
		{"renamed .dat", []string{filepath.Join(dir, "grid.dat"), "SELECT count(*) AS n, sum(value) AS s, (SELECT format FROM grid.tet_file) AS f FROM grid"},
			"n,s,f\n99,2741,b2nd\n"},
		{"no extension", []string{filepath.Join(dir, "noext"), "SELECT count(*) AS n FROM noext.noext"}, "n\n99\n"},
		{".open", []string{"-c", ".open " + b2nd("rank4.b2nd") + " AS r", "-c", "SELECT count(*) AS n, min(value) AS lo FROM r.rank4"},
			"n,lo\n360,-32768\n"},
		{".open default alias", []string{"-c", ".open " + b2nd("rank1.b2nd"), "-c", "SELECT count(*) AS n FROM rank1.rank1"}, "n\n100\n"},
		{".open sparse directory", []string{"-c", ".open " + b2nd("sparse_specials.b2nd") + " AS sp",
			"-c", "SELECT count(*) AS n, sum(value) AS s, (SELECT format FROM sp.tet_file) AS f FROM sp.sparse_specials"},
			"n,s,f\n48,1259,b2nd\n"},
		{"with a .tet file", []string{ref("sample.tet"), b2nd("rank1.b2nd"),
			"SELECT (SELECT count(*) FROM temperature) + (SELECT count(*) FROM rank1) AS n, group_concat(format) AS fs FROM (SELECT format FROM sample.tet_file UNION ALL SELECT format FROM rank1.tet_file)"},
			"n,fs\n106,\"tet,b2nd\"\n"},
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

// TestRun_b2ndRefused: files that cannot be read fail with an error
// naming the file and why, exit status 1 and no stack trace: a
// truncated copy (cut in the header, the chunks and the trailer), the
// unsupported fixtures and a sparse-frame directory missing a
// chunk file.
func TestRun_b2ndRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	orig := copyFile(t, b2nd("grid_25_chunks.b2nd"), filepath.Join(dir, "whole.b2nd"))
	type refusal struct{ path, want string }
	var tests []refusal
	for _, cut := range []int{0, 5, 40, 200, len(orig) / 2, len(orig) - 1} {
		p := filepath.Join(dir, "cut"+strconv.Itoa(cut)+".b2nd")
		if err := os.WriteFile(p, orig[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		want := "truncated"
		if cut < 16 {
			want = "not a file of a known format" // too short to recognise
		}
		tests = append(tests, refusal{p, want})
	}
	sparse := filepath.Join(dir, "sparse.b2nd")
	copyDir(t, b2nd("sparse_frame.b2nd"), sparse)
	if err := os.Remove(filepath.Join(sparse, "00000003.chunk")); err != nil {
		t.Fatal(err)
	}
	tests = append(tests,
		refusal{sparse, "00000003.chunk"},
		refusal{b2nd("unsupported_complex64.b2nd"), "complex"},
		refusal{b2nd("unsupported_structured.b2nd"), "structured"})
	for _, tt := range tests {
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			t.Parallel()
			code, out, errs := runCLI(t, "", tt.path, "SELECT 1 AS one")
			if code != 1 || out != "" || !strings.HasPrefix(errs, "Error: ") || !strings.Contains(errs, tt.want) ||
				!strings.Contains(errs, filepath.Base(tt.path)) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and an error naming the file and %q", code, out, errs, tt.want)
			}
			if strings.Contains(errs, "goroutine ") || strings.Contains(errs, "panic") {
				t.Errorf("stack trace on stderr: %s", errs)
			}
			// The same through .open: the shell goes on.
			code, out, errs = runCLI(t, "", "-c", ".open "+tt.path+" AS x", "-c", "SELECT 2 AS two")
			if code != 1 || !strings.Contains(errs, tt.want) {
				t.Errorf(".open: exit %d, stdout %q, stderr %q", code, out, errs)
			}
		})
	}
}

// copyDir copies the files of directory src into a new directory dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.Mkdir(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		copyFile(t, filepath.Join(src, e.Name()), filepath.Join(dst, e.Name()))
	}
}

// TestRun_b2ndVerify: .verify and .verify --deep print one ok line per
// Blosc2 NDim file (a sparse-frame directory too), the warnings of
// uninitialised chunks, and fail on a copy whose chunk is damaged only
// where a deep check looks: the block offsets inside a compressed chunk.
func TestRun_b2ndVerify(t *testing.T) {
	t.Parallel()
	files := []string{b2nd("grid_25_chunks.b2nd"), b2nd("sparse_frame.b2nd"), b2nd("special_uninit.b2nd"), b2nd("zstd_dict.b2nd")}
	for _, mode := range []string{"", " --deep"} {
		code, out, errs := runCLI(t, "", append(files, "-c", ".verify"+mode)...)
		decoded := func(n int) string {
			if mode == "" {
				return ""
			}
			return ", " + strconv.Itoa(n) + " decoded"
		}
		want := []string{
			"grid_25_chunks: " + b2nd("grid_25_chunks.b2nd") + ": ok (1 dataset, 25 chunks" + decoded(25) + ")",
			"sparse_frame: " + b2nd("sparse_frame.b2nd") + ": ok (1 dataset, 9 chunks" + decoded(9) + ")",
			"special_uninit: " + b2nd("special_uninit.b2nd") + ": ok with warnings (1 dataset, 4 chunks" + decoded(4) + ")",
			`  warning: dataset "special_uninit" chunk [0 0] uninitialised chunk: its values read as zeros but were never written`,
			`  warning: dataset "special_uninit" chunk [1 1] uninitialised chunk: its values read as zeros but were never written`,
			"zstd_dict: " + b2nd("zstd_dict.b2nd") + ": ok (1 dataset, 2 chunks" + decoded(2) + ")",
		}
		if code != 0 || errs != "" || strings.Count(out, "\n") != 8 {
			t.Errorf(".verify%s: exit %d, stderr %q, output:\n%s", mode, code, errs, out)
		}
		for _, line := range want {
			if !strings.Contains(out, line+"\n") {
				t.Errorf(".verify%s lacks %q; output:\n%s", mode, line, out)
			}
		}
	}

	// Damage the first byte offset of block 0 (after the 32-byte chunk
	// header) of the first zstd chunk: the frame still parses, the chunk
	// no longer decodes.
	code, out, errs := runCLI(t, "", "--no-header", b2nd("dtype_float32.b2nd"), "SELECT chunk || ' ' || payload_offset || ' ' || "+
		"replace(replace(replace(coords, ',', ' '), '[', ''), ']', '') FROM tet_chunks WHERE codec = 'blosc2/zstd' ORDER BY chunk LIMIT 1")
	f := strings.Fields(out) // chunk, payload offset, grid coordinates
	if code != 0 || len(f) != 4 {
		t.Fatalf("tet_chunks: exit %d %q %q", code, out, errs)
	}
	chunk, coords := f[0], f[2]+" "+f[3]
	offset, err := strconv.Atoi(f[1])
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.b2nd")
	data := copyFile(t, b2nd("dtype_float32.b2nd"), bad)
	data[offset+32+2] ^= 0xff
	if err := os.WriteFile(bad, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCLI(t, "", bad, "-c", ".verify")
	if code != 0 || !strings.Contains(out, "bad: "+bad+": ok (1 dataset, 9 chunks)\n") {
		t.Errorf(".verify of the damaged copy: exit %d, output:\n%s", code, out)
	}
	code, out, errs = runCLI(t, "", bad, "-c", ".verify --deep")
	if code != 1 || !strings.Contains(out, "bad: "+bad+": FAILED (1 dataset, 9 chunks, 8 decoded)\n") ||
		!strings.Contains(out, "  error: dataset \"bad\" chunk ["+coords+"] b2nd: bad: chunk "+chunk+": ") || !strings.Contains(out, "corrupt") ||
		!strings.Contains(errs, "verify: 1 file failed") {
		t.Errorf(".verify --deep of the damaged copy: exit %d, stderr %q, output:\n%s", code, errs, out)
	}
	// A query reading that chunk fails naming it; one that does not, answers.
	code, _, errs = runCLI(t, "", bad, "SELECT sum(value) FROM bad")
	if code != 1 || !strings.Contains(errs, "chunk "+chunk) || !strings.Contains(errs, "corrupt") {
		t.Errorf("sum over the damaged chunk: exit %d, stderr %q", code, errs)
	}
	code, out, errs = runCLI(t, "", bad, "SELECT value FROM bad WHERE d0 = 0 AND d1 = 0")
	if code != 0 || out != "value\n60.0\n" {
		t.Errorf("a cell of an undamaged chunk: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
