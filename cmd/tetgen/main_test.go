package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tetsql/tetsql/cmd/tetgen/internal/gen"
	"github.com/tetsql/tetsql/tetcore"
)

func TestRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	args := func(out string) []string {
		return []string{"-o", out, "--pattern", "random", "--seed", "42", "-j", "2",
			"--dataset", "temp:f32:10x3:4x2:zstd:time,station",
			"--dataset", "count:u16:7:3",
			"--labels", "temp.time=dates:2024-02-25", "--labels", "temp.station=list:Oslo,Rome,Lima",
			"--labels", "count.d0=seq:c%02d", "--attr", "temp.units=degC", "--attr", "temp.long_name=air temperature"}
	}
	a, b := filepath.Join(dir, "a.tet"), filepath.Join(dir, "b.tet")
	for _, out := range []string{a, b} {
		var stderr bytes.Buffer
		if code := run(args(out), &stderr, false); code != 0 || stderr.Len() != 0 {
			t.Fatalf("exit %d, stderr %q", code, stderr.String())
		}
	}
	ab, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	if !bytes.Equal(ab, bb) {
		t.Error("same arguments, different bytes")
	}
	f, err := tetcore.Open(a)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	temp, err := f.Dataset("temp")
	if err != nil {
		t.Fatal(err)
	}
	if temp.Labels[0][4] != "2024-02-29" || temp.Labels[1][2] != "Lima" || temp.Attrs["long_name"] != "air temperature" {
		t.Errorf("labels %q attrs %q", temp.Labels, temp.Attrs)
	}
	if c, _ := f.Dataset("count"); c == nil || c.Labels[0][6] != "c06" || c.DType != tetcore.U16 {
		t.Errorf("count: %+v", c)
	}
	want := map[string]string{"tool": "tetgen", "pattern": "random", "seed": "42"}
	for k, v := range want {
		if f.Footer.FileMeta[k] != v {
			t.Errorf("file meta %q", f.Footer.FileMeta)
		}
	}
}

func TestRun_errors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "x.tet")
	ds := []string{"-o", out, "--dataset", "t:f32:4x3:2x2:raw:time,station"}
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--dataset", "a:f32:4:2"}, 2, "missing -o FILE"},
		{[]string{"-o", out}, 2, "no --dataset given"},
		{[]string{"-o", out, "a:f32:4:2"}, 2, `unexpected argument "a:f32:4:2"`},
		{[]string{"-o", out, "--bogus"}, 2, "unknown flag: --bogus"},
		{[]string{"-o", out, "--seed", "-1", "--dataset", "a:f32:4:2"}, 2, `invalid argument "-1"`},
		{[]string{"-o", out, "--dataset", "a:f32:4"}, 2, "3 fields, want 4 to 6"},
		{[]string{"-o", out, "--dataset", "a:c64:4:2"}, 2, `unknown dtype "c64"`},
		{[]string{"-o", out, "--dataset", "a:f32:4x4:2"}, 2, "rank 1 but shape 4x4 has rank 2"},
		{[]string{"-o", out, "--dataset", "a:f32:0:2"}, 2, "sizes must be at least 1"},
		{[]string{"-o", out, "--dataset", "a:f32:4:2", "--dataset", "a:u8:4:2"}, 2, "declared twice"},
		{append(ds, "--labels", "t.lat=seq:%d"), 2, `has no dim "lat"`},
		{append(ds, "--labels", "t.station=list:a,b"), 2, "2 labels for an axis of size 3"},
		{append(ds, "--labels", "t.time=dates:yesterday"), 2, "is not a date"},
		{append(ds, "--attr", "x.units=K"), 2, "does not start with a declared dataset name"},
		{append(ds, "--pattern", "sawtooth"), 2, `unknown pattern`},
		{append(ds, "-j", "-3"), 2, "--jobs -3"},
		{[]string{"-o", out, "--preset", "demo", "--seed", "3"}, 2, "--preset cannot be combined with --seed"},
		{[]string{"-o", out, "--preset", "tiny"}, 2, `unknown preset`},
		{[]string{"-o", filepath.Join(dir, "missing", "x.tet"), "--dataset", "a:f32:4:2"}, 1, "tetgen: tetcore: create"},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		code := run(tt.args, &stderr, false)
		if code != tt.code || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("run(%q) = %d, stderr %q; want %d and %q", tt.args, code, stderr.String(), tt.code, tt.want)
		}
		if code == 2 && !strings.Contains(stderr.String(), "tetgen --help") {
			t.Errorf("run(%q): usage error without a hint: %q", tt.args, stderr.String())
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files left behind: %v", entries)
	}
}

func TestRun_help(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	if code := run([]string{"--help"}, &stderr, false); code != 0 {
		t.Errorf("--help: exit %d", code)
	}
	for _, want := range []string{"NAME:DTYPE:SHAPE:CHUNK", "dates:2024-01-01", "--preset", "--progress"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("help lacks %q:\n%s", want, stderr.String())
		}
	}
}

func TestProgress(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	now := time.Unix(1000, 0)
	p := newProgress(&buf)
	p.now = func() time.Time { return now }
	p.start, p.last = now, now
	s := gen.Progress{Chunks: 1, TotalChunks: 4, RawBytes: 1 << 20, TotalRaw: 4 << 20}
	p.update(s) // too soon
	if buf.Len() != 0 {
		t.Fatalf("printed too soon: %q", buf.String())
	}
	now = now.Add(500 * time.Millisecond)
	p.update(s)
	now = now.Add(100 * time.Millisecond)
	p.update(gen.Progress{Chunks: 2, TotalChunks: 4}) // throttled
	want := "\rtetgen: chunk 1/4 (25%), 1.0/4.0 MB, 2.0 MB/s"
	if buf.String() != want {
		t.Fatalf("got %q, want %q", buf.String(), want)
	}
	p.clear()
	if !strings.HasSuffix(buf.String(), "\r"+strings.Repeat(" ", len(want)-1)+"\r") {
		t.Errorf("not cleared: %q", buf.String())
	}
}

func TestRun_progressFlag(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	out := filepath.Join(t.TempDir(), "p.tet")
	if code := run([]string{"-o", out, "--progress", "--dataset", "a:u8:10:3"}, &stderr, false); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	// A quick run prints nothing, or a line that is cleared at the end.
	if s := stderr.String(); s != "" && !strings.HasSuffix(s, "\r") {
		t.Errorf("stderr %q", s)
	}
}
