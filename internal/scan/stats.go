package scan

import (
	"encoding/json"
	"fmt"
	"time"
)

// ScanStats are the counters of one cursor (cells or aggregate), summed over all
// its Filter calls.
type ScanStats struct {
	Table         string `json:"table"`   // schema-qualified table
	Dataset       string `json:"dataset"` // dataset name
	ChunksDecoded int64  `json:"chunks_decoded"`
	ChunksTotal   int64  `json:"chunks_total"`
	ChunksSkipped int64  `json:"chunks_skipped"` // by value statistics, unread
	CacheHits     int64  `json:"cache_hits"`     // chunks served by the decoded-chunk cache
	BytesRead     int64  `json:"bytes_read"`     // stored bytes read
	BytesDecoded  int64  `json:"bytes_decoded"`  // decoded bytes produced
	Rows          int64  `json:"rows"`           // rows emitted
	Elements      int64  `json:"elements"`       // elements folded (aggregate tables)
	Filters       int64  `json:"filters"`        // Filter calls
	// Many-file tables only (FilesTotal > 0): files opened, files the
	// table spans, files skipped by on_error=skip.
	FilesOpened  int64         `json:"files_opened,omitempty"`
	FilesTotal   int64         `json:"files_total,omitempty"`
	FilesSkipped int64         `json:"skipped_files,omitempty"`
	Elapsed      time.Duration `json:"-"`
}

// JSON renders the counters as a JSON object (elapsed in milliseconds).
func (s ScanStats) JSON() string {
	type out struct {
		ScanStats
		ElapsedMS float64 `json:"elapsed_ms"`
	}
	b, _ := json.Marshal(out{s, float64(s.Elapsed.Microseconds()) / 1000})
	return string(b)
}

// String is the one-line form the CLI prints after a statement.
func (s ScanStats) String() string {
	skipped := ""
	if s.ChunksSkipped > 0 {
		skipped = fmt.Sprintf(" skipped=%d", s.ChunksSkipped)
	}
	if s.CacheHits > 0 {
		skipped += fmt.Sprintf(" cached=%d", s.CacheHits)
	}
	files := ""
	if s.FilesTotal > 0 {
		files = fmt.Sprintf(" files=%d/%d", s.FilesOpened, s.FilesTotal)
		if s.FilesSkipped > 0 {
			files += fmt.Sprintf(" skipped_files=%d", s.FilesSkipped)
		}
	}
	return fmt.Sprintf("stats: %s%s chunks=%d/%d%s rows=%d read=%s decoded=%s time=%s",
		s.Table, files, s.ChunksDecoded, s.ChunksTotal, skipped, s.Rows, humanBytes(s.BytesRead), humanBytes(s.BytesDecoded),
		s.Elapsed.Round(time.Microsecond))
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1fGiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1fMiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1fKiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%dB", n)
}
