package tetcore

import (
	"fmt"
	"sync"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/mapfile"
)

// File is an opened .tet file. Its methods are safe for concurrent use.
type File struct {
	mf   *mapfile.File // the mapping or the caller's bytes: guarded reads, pins, Close
	data []byte        // mf.Data(): the whole file
	opts options

	// LayoutVersion is the superblock's layout_version (always 1).
	LayoutVersion uint32
	// Datasets in directory order.
	Datasets []*Dataset
	// MemoryBudgetBPS is the index's memory_budget_percent_bps hint
	// (basis points of host RAM; 0 = engine default of 25%).
	MemoryBudgetBPS uint16
	// MemoryBudgetBytes is the index's memory_budget_bytes hint (0 = use
	// the percentage).
	MemoryBudgetBytes uint32
	// Footer holds what the footer JSON said; see FooterStatus.
	Footer Footer

	flags        uint32
	indexOffset  uint64
	indexLength  uint64
	payloadEnd   uint64
	footerStatus string
	byName       map[string]*Dataset
	arrays       []array.Array // adapters over Datasets, see buildArrays
	pendingMeta  *metadataJSON

	// footer v2 zone maps (zonemap.go): where the blob is, parsed on
	// first use into zones, or the reason it was rejected
	zoneRef     *blobRef
	zoneOnce    sync.Once
	zones       []map[int64]array.ZoneMap
	zoneProblem string
}

// Path is the path the file was opened from ("" for Parse).
func (f *File) Path() string { return f.mf.Path() }

// Size is the file length in bytes.
func (f *File) Size() int64 { return int64(len(f.data)) }

// HasFooter reports whether superblock flag bit 0 is set.
func (f *File) HasFooter() bool { return f.flags&flagFooter != 0 }

// FooterStatus is "absent", "ok", or "damaged: <reason>".
func (f *File) FooterStatus() string { return f.footerStatus }

// Dataset looks a dataset up by its exact name.
func (f *File) Dataset(name string) (*Dataset, error) {
	if d, ok := f.byName[name]; ok {
		return d, nil
	}
	return nil, fmt.Errorf("tetcore: dataset %q: %w", name, ErrNotFound)
}

// Acquire pins the file's data so that Close does not release it until a
// matching Release. It fails with ErrClosed once Close was called, and
// with ErrChanged once the file on disk is no longer the one mapped (see
// CheckUnchanged): every statement that reads the file pins it first, so
// no statement starts on a mapping of a replaced or rewritten file.
func (f *File) Acquire() error { return prefixed(f.mf.Acquire()) }

// Release undoes one Acquire; the last Release after Close unmaps.
func (f *File) Release() { f.mf.Release() }

// Close marks the file closed; the mapping is released at once, or when
// the last Acquire is released. Slices obtained from the file must not be
// used after that. Close is idempotent.
func (f *File) Close() error { return f.mf.Close() }

// isClosed reports whether the data is released: Close was called and
// no pin is left.
func (f *File) isClosed() bool { return f.mf.Released() }
