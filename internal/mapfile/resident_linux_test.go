package mapfile_test

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/tetsql/tetsql/internal/mapfile"
)

// mappingRSS finds, in /proc/self/smaps, the mapping that holds addr and
// returns its resident bytes; found is false when no mapping holds it.
func mappingRSS(t *testing.T, addr uintptr) (rss int64, found bool) {
	t.Helper()
	fh, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	in := false
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if lo, hi, ok := strings.Cut(fields[0], "-"); ok && !strings.HasSuffix(fields[0], ":") {
			l, err1 := strconv.ParseUint(lo, 16, 64)
			h, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 == nil && err2 == nil {
				in = uint64(addr) >= l && uint64(addr) < h
				found = found || in
				continue
			}
		}
		if in && fields[0] == "Rss:" && len(fields) == 3 {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				t.Fatalf("smaps: %q", line)
			}
			return kb << 10, true
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return 0, found
}

// TestEvictRange_dropsWholePagesInside: EvictRange hands back exactly the
// pages lying wholly inside the range, as the mapping's resident size in
// /proc/self/smaps shows. Every case starts from a fully resident mapping.
func TestEvictRange_dropsWholePagesInside(t *testing.T) {
	page := uint64(os.Getpagesize())
	const pages = 8
	for _, tc := range []struct {
		name     string
		size     uint64 // of the file
		lo, hi   uint64
		resident uint64 // pages left
	}{
		{"all", pages * page, 0, pages * page, 0},
		{"all, end past the file", pages * page, 0, 1 << 62, 0},
		{"first byte spared", pages * page, 1, pages * page, 1},
		{"last byte spared", pages * page, 0, pages*page - 1, 1},
		{"middle pages", pages * page, 2*page - 1, 5*page + 1, pages - 3},
		{"inside one page", pages * page, page + 1, 2*page - 1, pages},
		{"inverted", pages * page, 5 * page, 2 * page, pages},
		{"past the end", pages * page, pages * page, 1 << 62, pages},
		{"near the top of the address range", pages * page, ^uint64(0) - 10, ^uint64(0), pages},
		{"partial last page kept", pages*page - 100, 0, 1 << 62, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := mapfile.Open(writeTemp(t, pattern(int(tc.size))))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			addr := uintptr(unsafe.Pointer(unsafe.SliceData(f.Data())))
			snapshot(t, f) // reads every page
			if rss, _ := mappingRSS(t, addr); rss != int64(pages*page) {
				t.Skipf("mapping not fully resident after reading it (%d of %d bytes)", rss, pages*page)
			}
			f.EvictRange(tc.lo, tc.hi)
			rss, found := mappingRSS(t, addr)
			if !found || rss != int64(tc.resident*page) {
				t.Errorf("EvictRange(%d, %d): %d pages resident, want %d", tc.lo, tc.hi, rss/int64(page), tc.resident)
			}
		})
	}
}

// TestRelease_unmaps: Close with a pin held leaves the mapping in place;
// the last Release removes it from the address space.
func TestRelease_unmaps(t *testing.T) {
	f, err := mapfile.Open(writeTemp(t, pattern(3*os.Getpagesize())))
	if err != nil {
		t.Fatal(err)
	}
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(f.Data())))
	if _, found := mappingRSS(t, addr); !found {
		t.Fatal("mapping not found in /proc/self/smaps")
	}
	if err := f.Acquire(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if _, found := mappingRSS(t, addr); !found {
		t.Fatal("Close unmapped while a pin was held")
	}
	f.Release()
	if _, found := mappingRSS(t, addr); found {
		t.Fatal("still mapped after Close and the last Release")
	}
	f.EvictRange(0, 1<<62) // the address range may be reused: must not touch it
	g, err := mapfile.Open(writeTemp(t, pattern(100)))
	if err != nil {
		t.Fatal(err)
	}
	if _, found := mappingRSS(t, uintptr(unsafe.Pointer(unsafe.SliceData(g.Data())))); !found {
		t.Fatal("mapping not found in /proc/self/smaps")
	}
	g.Close() // no pins: unmaps at once
	if _, found := mappingRSS(t, uintptr(unsafe.Pointer(unsafe.SliceData(g.Data())))); found {
		t.Fatal("still mapped after Close without pins")
	}
}
