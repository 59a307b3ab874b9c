package output_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

// TestFile: the target changes only at Commit, to exactly what was
// written (less what Rewind cut); Abort leaves it as it was; neither
// leaves a temporary file; a symlinked target is written through the
// link and an existing target keeps its mode.
func TestFile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		link    bool // the output path is a symlink to the target
		commit  bool
		rewind  bool // write "a", mark, write "b", rewind to the mark
		want    string
		oldMode fs.FileMode
	}{
		{name: "commit", commit: true, want: "ab", oldMode: 0o640},
		{name: "abort", want: "old"},
		{name: "rewind", commit: true, rewind: true, want: "a", oldMode: 0o600},
		{name: "commit through link", link: true, commit: true, want: "ab", oldMode: 0o604},
		{name: "abort through link", link: true, want: "old"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			target := filepath.Join(dir, "t.csv")
			mode := tt.oldMode
			if mode == 0 {
				mode = 0o644
			}
			if err := os.WriteFile(target, []byte("old"), mode); err != nil {
				t.Fatal(err)
			}
			os.Chmod(target, mode) // whatever the umask
			path := target
			if tt.link {
				path = filepath.Join(dir, "link.csv")
				os.Symlink("t.csv", path)
			}
			f, err := output.CreateFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f.Write([]byte("a"))
			off := f.Offset()
			f.Write([]byte("b"))
			if tt.rewind {
				if err := f.Rewind(off); err != nil {
					t.Fatal(err)
				}
			}
			if b, _ := os.ReadFile(target); string(b) != "old" {
				t.Fatalf("target changed before Commit: %q", b)
			}
			if tt.commit {
				err = f.Commit()
			} else {
				err = f.Abort()
			}
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(target); string(b) != tt.want {
				t.Errorf("target %q, want %q", b, tt.want)
			}
			if fi, _ := os.Stat(target); fi.Mode().Perm() != mode {
				t.Errorf("mode %v, want %v", fi.Mode().Perm(), mode)
			}
			if tt.link {
				if li, err := os.Lstat(path); err != nil || li.Mode()&fs.ModeSymlink == 0 {
					t.Errorf("the link was replaced: %v %v", li.Mode(), err)
				}
			}
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if strings.Contains(e.Name(), ".tmp-") {
					t.Errorf("left behind: %s", e.Name())
				}
			}
			if err := f.Commit(); err != nil { // a second close is a no-op
				t.Error(err)
			}
		})
	}
}

// TestFile_errors: a directory, a missing directory and an empty name
// are refused with the path in the message, and nothing is created.
func TestFile_errors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, path := range []string{dir, filepath.Join(dir, "no", "x.csv"), ""} {
		if _, err := output.CreateFile(path); err == nil || !strings.Contains(err.Error(), "output") {
			t.Errorf("%q: %v", path, err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("created %v", ents)
	}
}

// TestFile_messages: an error names the path given once, with the
// operating system's reason, and never the temporary file's name.
func TestFile_messages(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "no", "x.csv")
	tests := []struct{ path, want string }{
		{missing, "output " + missing + ": no such file or directory"},
		{"/proc/no/x.csv", "output /proc/no/x.csv: no such file or directory"},
		{dir, "output " + dir + ": is a directory"},
	}
	if os.Geteuid() != 0 { // root writes anywhere
		ro := filepath.Join(dir, "ro")
		if err := os.Mkdir(ro, 0o755); err != nil {
			t.Fatal(err)
		}
		old := filepath.Join(ro, "old.csv")
		if err := os.WriteFile(old, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(ro, 0o755) })
		tests = append(tests,
			struct{ path, want string }{filepath.Join(ro, "new.csv"), "output " + filepath.Join(ro, "new.csv") + ": permission denied"},
			struct{ path, want string }{old, "output " + old + ": cannot create a file in " + ro + " to replace it with: permission denied"})
	}
	for _, tt := range tests {
		_, err := output.CreateFile(tt.path)
		if err == nil || err.Error() != tt.want {
			t.Errorf("CreateFile(%q) = %v, want %q", tt.path, err, tt.want)
		}
	}
}

// TestRemoveTemps removes the temporary file of an open File and keeps
// the target.
func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "t.csv")
	os.WriteFile(target, []byte("old"), 0o644)
	f, err := output.CreateFile(target)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("new"))
	output.RemoveTemps()
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 || ents[0].Name() != "t.csv" {
		t.Errorf("left: %v", ents)
	}
	if err := f.Commit(); err == nil {
		t.Error("Commit after RemoveTemps succeeded")
	}
	if b, _ := os.ReadFile(target); string(b) != "old" {
		t.Errorf("target %q", b)
	}
}

// TestFile_longName: a target name near NAME_MAX still gets a temporary
// name that fits.
func TestFile_longName(t *testing.T) {
	t.Parallel()
	target := filepath.Join(t.TempDir(), strings.Repeat("n", 250)+".csv")
	f, err := output.CreateFile(target)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("x"))
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "x" {
		t.Errorf("target %q", b)
	}
}

// TestTrackTempDir: RemoveTemps removes a tracked temporary directory
// with what it holds, and no longer one untracked.
func TestTrackTempDir(t *testing.T) {
	parent := t.TempDir()
	tracked, kept := filepath.Join(parent, "a"), filepath.Join(parent, "b")
	for _, d := range []string{tracked, kept} {
		os.MkdirAll(filepath.Join(d, "k=1"), 0o755)
		os.WriteFile(filepath.Join(d, "k=1", "part-0.parquet"), []byte("x"), 0o644)
	}
	output.TrackTempDir(tracked)
	output.TrackTempDir(kept)()
	output.RemoveTemps()
	if _, err := os.Stat(tracked); !os.IsNotExist(err) {
		t.Errorf("tracked directory left: %v", err)
	}
	if _, err := os.Stat(filepath.Join(kept, "k=1", "part-0.parquet")); err != nil {
		t.Errorf("untracked directory removed: %v", err)
	}
}
