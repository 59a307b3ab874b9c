package tetcore

import (
	"fmt"
	"sort"
)

// VerifyMode selects how much Verify checks.
type VerifyMode int

// Verify modes.
const (
	// VerifyQuick checks structure only (what Open checks, plus findings
	// such as missing chunks and overlapping payloads).
	VerifyQuick VerifyMode = iota
	// VerifyDeep also decodes every chunk.
	VerifyDeep
)

// Finding is one observation of VerifyReport.
type Finding struct {
	Severity string // "error" or "warning"
	Dataset  string // "" for file-level findings
	Chunk    []int64
	Message  string
}

// String formats the finding on one line.
func (f Finding) String() string {
	s := f.Severity + ": "
	if f.Dataset != "" {
		s += fmt.Sprintf("dataset %q ", f.Dataset)
	}
	if f.Chunk != nil {
		s += fmt.Sprintf("chunk %v ", f.Chunk)
	}
	return s + f.Message
}

// Report is the outcome of VerifyReport.
type Report struct {
	Datasets      int
	Chunks        int
	DecodedChunks int // chunks decoded (deep mode)
	Findings      []Finding
}

// OK reports whether no finding is an error.
func (r *Report) OK() bool {
	for _, f := range r.Findings {
		if f.Severity == "error" {
			return false
		}
	}
	return true
}

// VerifyReport checks the file. Structural rules were already enforced by Open;
// Verify adds findings that do not prevent reading (footer damage, chunks
// absent from the index, payloads that overlap) and, in deep mode, decodes
// every chunk.
//
// It was called Verify before the file became an array.Source, whose
// Verifier capability takes that name (see File.Verify).
func (f *File) VerifyReport(mode VerifyMode) (*Report, error) {
	return f.VerifyReportLimit(mode, f.opts.maxChunkBytes)
}

// VerifyReportLimit is VerifyReport with the chunk size limit of the
// caller (0 = DefaultMaxChunkBytes) instead of the one the file was
// opened with: in deep mode a compressed chunk that would decode to more
// is an error finding, not a decode. A file shared by databases with
// different limits is opened with none of its own, so a verification
// must say which applies.
func (f *File) VerifyReportLimit(mode VerifyMode, maxChunkBytes int64) (*Report, error) {
	if maxChunkBytes <= 0 {
		maxChunkBytes = DefaultMaxChunkBytes
	}
	if err := f.Acquire(); err != nil {
		return nil, err
	}
	defer f.Release()
	r := &Report{Datasets: len(f.Datasets)}
	add := func(sev, ds string, chunk []int64, format string, args ...any) {
		r.Findings = append(r.Findings, Finding{sev, ds, chunk, fmt.Sprintf(format, args...)})
	}
	if st := f.footerStatus; st != "ok" && st != "absent" {
		add("warning", "", nil, "footer %s", st)
	}
	if f.zoneMaps(); f.zoneProblem != "" {
		add("warning", "", nil, "footer %s: ignored", f.zoneProblem)
	}
	type span struct {
		off, end uint64
		ds       string
		coords   []int64
	}
	var spans []span
	for _, ds := range f.Datasets {
		r.Chunks += len(ds.chunks)
		if missing := ds.gridCount - int64(len(ds.chunks)); missing > 0 {
			add("error", ds.Name, nil, "%d of %d chunks absent from the index", missing, ds.gridCount)
		}
		for i := range ds.chunks {
			c := &ds.chunks[i]
			spans = append(spans, span{c.Offset, c.Offset + uint64(c.StoredLen), ds.Name, c.Coords[:ds.Rank()]})
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].off < spans[j].off })
	for i := 1; i < len(spans); i++ {
		if spans[i].off < spans[i-1].end {
			add("warning", spans[i].ds, spans[i].coords, "payload overlaps that of dataset %q chunk %v", spans[i-1].ds, spans[i-1].coords)
		}
	}
	if mode == VerifyDeep {
		var buf []byte
		for _, ds := range f.Datasets {
			for i := range ds.chunks {
				c := &ds.chunks[i]
				if c.Codec != CodecRaw && c.RawLen > maxChunkBytes {
					add("error", ds.Name, c.Coords[:ds.Rank()], "tetcore: dataset %q chunk %v: %d bytes: %v (%d bytes at most)",
						ds.Name, c.Coords[:ds.Rank()], c.RawLen, ErrTooLarge, maxChunkBytes)
					continue
				}
				out, err := f.ReadChunk(ds, c, buf)
				if err != nil {
					add("error", ds.Name, c.Coords[:ds.Rank()], "%v", err)
					continue
				}
				r.DecodedChunks++
				if msg := f.zoneMismatch(ds, c, out); msg != "" {
					add("error", ds.Name, c.Coords[:ds.Rank()], "zone map disagrees with the data: %s", msg)
				}
				if c.Codec == CodecZstd {
					buf = out
				}
			}
		}
	}
	return r, nil
}
