package glob

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// tree makes the files (and, for names ending in "/", directories) under
// a temporary directory and returns it.
func tree(t *testing.T, names ...string) string {
	t.Helper()
	root := t.TempDir()
	for _, n := range names {
		p := filepath.Join(root, n)
		if strings.HasSuffix(n, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func paths(ms []Match, root string) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, strings.TrimPrefix(m.Path, root+"/"))
	}
	return out
}

func TestExpand(t *testing.T) {
	root := tree(t,
		"a.tet", "b.tet", "c.b2nd", ".hidden.tet",
		"year=2024/month=01/x.tet", "year=2024/month=02/x.tet", "year=2024/month=02/y.b2nd",
		"year=2025/month=01/x.tet", "deep/1/2/3/z.tet", "frame.b2nd/chunks.b2frame", "empty/")
	cases := []struct {
		pattern string
		want    []string
	}{
		{"*.tet", []string{".hidden.tet", "a.tet", "b.tet"}},
		{"?.tet", []string{"a.tet", "b.tet"}},
		{"[ab].tet", []string{"a.tet", "b.tet"}},
		{"[^a].tet", []string{"b.tet"}},
		{"*.b2nd", []string{"c.b2nd", "frame.b2nd"}}, // a directory named by the last segment
		{"**/*.tet", []string{".hidden.tet", "a.tet", "b.tet", "deep/1/2/3/z.tet",
			"year=2024/month=01/x.tet", "year=2024/month=02/x.tet", "year=2025/month=01/x.tet"}},
		{"year=2024/**/*.tet", []string{"year=2024/month=01/x.tet", "year=2024/month=02/x.tet"}},
		{"year=*/month=01/*", []string{"year=2024/month=01/x.tet", "year=2025/month=01/x.tet"}},
		{"deep/**", []string{"deep/1/2/3/z.tet"}}, // trailing ** matches files only
		{"deep/**/3/*.tet", []string{"deep/1/2/3/z.tet"}},
		{"deep/**/**/z.tet", []string{"deep/1/2/3/z.tet"}}, // no duplicates
		{"*/*/*.b2nd", []string{"year=2024/month=02/y.b2nd"}},
		{"a.tet", []string{"a.tet"}},  // no magic: itself
		{"nope.tet", []string{}},      // no magic, missing
		{"missing/*.tet", []string{}}, // missing start directory
		{"empty/*", []string{}},
		{"*.nc", []string{}},
	}
	for _, c := range cases {
		t.Run(c.pattern, func(t *testing.T) {
			ms, err := Expand(root+"/"+c.pattern, 100)
			if err != nil {
				t.Fatal(err)
			}
			if got := paths(ms, root); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestExpandRelative(t *testing.T) {
	root := tree(t, "d/x=1/a.tet", "d/x=2/b.tet")
	t.Chdir(root)
	for _, p := range []string{"d/*/*.tet", "./d/*/*.tet"} {
		ms, err := Expand(p, 10)
		if err != nil {
			t.Fatal(err)
		}
		prefix := strings.TrimSuffix(p, "*/*.tet")
		want := []Match{
			{Path: prefix + "x=1/a.tet", Hive: []KV{{"x", "1"}}},
			{Path: prefix + "x=2/b.tet", Hive: []KV{{"x", "2"}}},
		}
		if !reflect.DeepEqual(ms, want) {
			t.Errorf("%s: got %+v, want %+v", p, ms, want)
		}
	}
	ms, err := Expand("*", 10)
	if err != nil || len(ms) != 1 || ms[0].Path != "d" || !ms[0].IsDir {
		t.Errorf("Expand(*) = %+v, %v; want the directory d", ms, err)
	}
}

func TestHive(t *testing.T) {
	root := tree(t, "year=2024/=x/month=01/k=v=w/a=b.tet", "year=2024/plain/a.tet")
	ms, err := Expand(root+"/year=2024/**/*.tet", 10)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]KV{
		{{"year", "2024"}, {"month", "01"}, {"k", "v=w"}}, // "=x" has no key; the file name never counts
		{{"year", "2024"}},
	}
	if len(ms) != 2 {
		t.Fatalf("got %d matches", len(ms))
	}
	for i, m := range ms {
		// The root's own segments hold no '='; only the tree's count.
		if !reflect.DeepEqual(m.Hive, want[i]) {
			t.Errorf("%s: hive %+v, want %+v", m.Path, m.Hive, want[i])
		}
	}
}

func TestExpandErrors(t *testing.T) {
	root := tree(t, "a.tet", "b.tet", "c.tet")
	cases := []struct {
		pattern string
		limit   int
		want    string
		is      error
	}{
		{"[", 10, "syntax error", path.ErrBadPattern},
		{"x/[a-/*.tet", 10, "syntax error", path.ErrBadPattern},
		{"a**.tet", 10, "whole path segment", nil},
		{"**/**/**/**/**/*.tet", 10, "more than 4", nil},
		{"*.tet", 2, "more than 2 files", ErrTooMany},
		{"a.tet", 0, "more than 0 files", ErrTooMany},
	}
	for _, c := range cases {
		_, err := Expand(root+"/"+c.pattern, c.limit)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want one saying %q", c.pattern, err, c.want)
		}
		if c.is != nil && !errors.Is(err, c.is) {
			t.Errorf("%s: err %v is not %v", c.pattern, err, c.is)
		}
	}
	if ms, err := Expand(root+"/*.tet", 3); err != nil || len(ms) != 3 {
		t.Errorf("exactly the limit: %d matches, %v", len(ms), err)
	}
}

func TestSymlinkCycle(t *testing.T) {
	root := tree(t, "d/a.tet", "other/b.tet")
	if err := os.Symlink(root+"/d", root+"/d/loop"); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if err := os.Symlink(root+"/other/b.tet", root+"/d/link.tet"); err != nil {
		t.Fatal(err)
	}
	ms, err := Expand(root+"/**/*", 100)
	if err != nil {
		t.Fatal(err)
	}
	// The link to a directory is named but not walked; the link to a
	// file is listed as a file.
	want := []string{"d", "d/a.tet", "d/link.tet", "d/loop", "other", "other/b.tet"}
	if got := paths(ms, root); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if !ms[3].IsDir || ms[2].IsDir {
		t.Errorf("IsDir of loop %v, link.tet %v", ms[3].IsDir, ms[2].IsDir)
	}
}

func TestFixed(t *testing.T) {
	for _, c := range [][2]string{
		{"era5/**/*.tet", "era5"}, {"a/b/*.tet", "a/b"}, {"*.tet", "."},
		{"/*.tet", "/"}, {"/x/y/*/z.tet", "/x/y"}, {"a/b/c.tet", "a/b"},
		{"a//b/*", "a/b"}, {"./d/*", "./d"},
	} {
		if got := Fixed(c[0]); got != c[1] {
			t.Errorf("Fixed(%q) = %q, want %q", c[0], got, c[1])
		}
	}
}

// FuzzMatchSegs checks the segment matcher against path.Match for
// patterns without `**`: splitting at "/" and matching segment by
// segment must agree with matching the whole path.
func FuzzMatchSegs(f *testing.F) {
	for _, s := range [][2]string{
		{"a/*/c", "a/b/c"}, {"*", "a/b"}, {"a?", "ab"}, {"[a-c]/x", "b/x"},
		{"[^/]", "/"}, {"a/", "a/"}, {"\\*", "*"}, {"", ""},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		if strings.Contains(pattern, "**") {
			return
		}
		want, err := path.Match(pattern, name)
		psegs := strings.Split(pattern, "/")
		cerr := check(pattern, psegs)
		if err != nil || cerr != nil {
			// path.Match reports a bad pattern only when it gets that
			// far; a class spanning a "/" is a bad segment for us.
			return
		}
		if got := matchSegs(psegs, strings.Split(name, "/")); got != want {
			t.Errorf("matchSegs(%q, %q) = %v, path.Match = %v", pattern, name, got, want)
		}
	})
}

// TestSymlinkPartition: a pattern without ** walks into a linked
// directory (a partition kept elsewhere) and into a link cycle only as
// deep as its segments; ** still does not follow links.
func TestSymlinkPartition(t *testing.T) {
	root := tree(t, "data/year=2023/a.tet", "elsewhere/b.tet")
	if err := os.Symlink(root+"/elsewhere", root+"/data/year=2024"); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if err := os.Symlink(root+"/data", root+"/data/year=2023/loop"); err != nil {
		t.Fatal(err)
	}
	ms, err := Expand(root+"/data/*/*.tet", 100)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := paths(ms, root), []string{"data/year=2023/a.tet", "data/year=2024/b.tet"}; !reflect.DeepEqual(got, want) {
		t.Errorf("one * per level: got %q, want %q", got, want)
	}
	if ms[1].Hive[0] != (KV{"year", "2024"}) {
		t.Errorf("hive of the linked partition: %v", ms[1].Hive)
	}
	ms, err = Expand(root+"/data/*/*/*/*.tet", 100) // through the cycle, bounded by the segments
	if err != nil {
		t.Fatal(err)
	}
	if got, want := paths(ms, root), []string{"data/year=2023/loop/year=2023/a.tet", "data/year=2023/loop/year=2024/b.tet"}; !reflect.DeepEqual(got, want) {
		t.Errorf("through the loop: got %q, want %q", got, want)
	}
	ms, err = Expand(root+"/data/**/*.tet", 100)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := paths(ms, root), []string{"data/year=2023/a.tet"}; !reflect.DeepEqual(got, want) {
		t.Errorf("** does not follow links: got %q, want %q", got, want)
	}
}
