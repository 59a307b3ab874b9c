package tetsql_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tetsql/tetsql/array"
)

// b2ndSentinels are the errors a damaged file may fail with.
var b2ndSentinels = []error{array.ErrCorrupt, array.ErrTruncated, array.ErrUnsupported, array.ErrDecode,
	array.ErrTooLarge, array.ErrMissingChunk, array.ErrUnknownFormat,
	array.ErrNotRegular} // a sparse frame directory whose chunks.b2frame is not recognised

// TestB2ndSQL_hostile: truncated and byte-flipped copies of Blosc2 NDim
// files (contiguous frames, and the frame file and a chunk file of a
// sparse frame) open and answer SELECT count(*), sum(value) from the
// cells table and from _agg either with a result or with an error
// wrapping one of array's sentinels and naming the file or dataset;
// never a panic or a hang. A truncated file always fails.
func TestB2ndSQL_hostile(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		fixture string
		member  string // the file damaged inside a sparse frame directory
		flips   int    // changed bytes tried, at most (a whole scan of each copy is slow under -race)
	}{
		{fixture: "dtype_float32.b2nd", flips: 120}, // zstd+shuffle, memcpyed edge chunks
		{fixture: "special_mixed.b2nd", flips: 120}, // special chunks
		{fixture: "codec_lz4.b2nd", flips: 60},      // lz4, several chunks
		{fixture: "filter_bytedelta.b2nd", flips: 60},
		{fixture: "attrs_dim_names.b2nd", flips: 120}, // vlmeta
		{fixture: "dtype_be_int32.b2nd", flips: 120},
		{fixture: "zstd_dict.b2nd", flips: 25}, // 16384 elements
		{fixture: "sparse_frame.b2nd", member: "chunks.b2frame", flips: 100},
		{fixture: "sparse_frame.b2nd", member: "00000004.chunk", flips: 60},
	} {
		t.Run(strings.TrimSuffix(tt.fixture, ".b2nd")+"/"+tt.member, func(t *testing.T) {
			t.Parallel()
			src := filepath.Join(b2ndDir, tt.fixture)
			if tt.member != "" {
				src = filepath.Join(src, tt.member)
			}
			orig, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			writeB2ndCopy(t, tt.fixture, tt.member, filepath.Join(dir, "orig.b2nd"), orig)
			want, err := queryDamaged(t, filepath.Join(dir, "orig.b2nd"), "orig")
			if err != nil {
				t.Fatalf("undamaged copy: %v", err)
			}
			var results, same, failures int
			for i, c := range b2ndCorruptions(orig, tt.flips) {
				path := filepath.Join(dir, fmt.Sprintf("c%d.b2nd", i))
				writeB2ndCopy(t, tt.fixture, tt.member, path, c.data)
				got, err := queryDamaged(t, path, fmt.Sprintf("c%d", i))
				switch {
				case err == nil:
					results++
					if got == want {
						same++
					}
					if c.truncated {
						t.Errorf("%s: no error", c.what)
					}
				case errors.Is(err, context.DeadlineExceeded):
					t.Fatalf("%s: no answer within the deadline: %v", c.what, err)
				case !isB2ndSentinel(err) || !strings.Contains(err.Error(), fmt.Sprintf("c%d", i)):
					t.Errorf("%s: error %q wraps no array sentinel or does not name the file or dataset", c.what, err)
				default:
					failures++
				}
			}
			// Blosc2 frames carry no checksum: a changed byte of compressed
			// data or of a value can give other values without an error.
			t.Logf("%d damaged copies: %d failed, %d answered (%d as the undamaged file)", results+failures, failures, results, same)
			if failures == 0 {
				t.Error("no damaged copy failed")
			}
		})
	}
}

// b2ndCorruption is a damaged copy of a file.
type b2ndCorruption struct {
	what      string
	data      []byte
	truncated bool
}

// b2ndCorruptions are copies of orig cut at many lengths and up to flips
// copies with one byte changed, with three masks in turn: every byte of
// the first 96 and the last 48 (frame header and metalayers, chunk index
// and trailer) and 100 spread over the rest, thinned evenly to flips.
func b2ndCorruptions(orig []byte, flips int) []b2ndCorruption {
	var out []b2ndCorruption
	n := len(orig)
	seen := map[int]bool{}
	for i := 0; i < 40; i++ {
		cut := i * n / 40
		if i%2 == 1 {
			cut = min(n-1, i*3) // short cuts through the headers
		}
		if !seen[cut] {
			seen[cut] = true
			out = append(out, b2ndCorruption{what: fmt.Sprintf("cut at %d of %d", cut, n), data: orig[:cut], truncated: true})
		}
	}
	clear(seen)
	var positions []int
	for p := range min(n, 96) {
		positions = append(positions, p)
	}
	for p := max(96, n-48); p < n; p++ {
		positions = append(positions, p)
	}
	for i := range 100 {
		positions = append(positions, i*n/100)
	}
	masks := []byte{0xff, 0x01, 0x80}
	for i, p := range positions {
		if seen[p] || i*flips/len(positions) == (i-1)*flips/len(positions) && i > 0 {
			continue
		}
		seen[p] = true
		d := append([]byte(nil), orig...)
		d[p] ^= masks[i%len(masks)]
		out = append(out, b2ndCorruption{what: fmt.Sprintf("byte %d of %d ^ %#x", p, n, masks[i%len(masks)]), data: d})
	}
	return out
}

// writeB2ndCopy writes data as path: a contiguous frame, or a sparse
// frame directory whose member is data and whose other files are the
// fixture's.
func writeB2ndCopy(t *testing.T, fixture, member, path string, data []byte) {
	t.Helper()
	if member == "" {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	src := filepath.Join(b2ndDir, fixture)
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b := data
		if e.Name() != member {
			if b, err = os.ReadFile(filepath.Join(src, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(path, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// queryDamaged opens path (its table is name) and sums it through the
// cells table and through _agg, within a deadline; it returns the
// answers, or the first error.
func queryDamaged(t *testing.T, path, name string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	db, err := sql.Open("tetsql", path+"?agg_rewrite=false&max_chunk_bytes=1MiB")
	if err != nil {
		return "", err
	}
	defer db.Close()
	var answers string
	var counts []int64
	for _, q := range []string{
		"SELECT count(*), sum(value) FROM " + name,
		"SELECT count + null_count, sum FROM " + name + "_agg",
	} {
		var n int64
		var sum any
		if err := db.QueryRowContext(ctx, q).Scan(&n, &sum); err != nil {
			return "", err
		}
		answers += fmt.Sprintf("%d %v; ", n, sum)
		counts = append(counts, n)
	}
	if counts[0] != counts[1] {
		t.Errorf("%s: the cells table counts %d elements, _agg %d", path, counts[0], counts[1])
	}
	return answers, nil
}

// isB2ndSentinel reports an error wrapping one of b2ndSentinels.
func isB2ndSentinel(err error) bool {
	for _, s := range b2ndSentinels {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}
