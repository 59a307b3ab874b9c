package tetcore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
)

// Footer is the decoded footer JSON of a file.
type Footer struct {
	History []HistoryRow
	// FileMeta is metadata.file, with non-string values as JSON text.
	FileMeta map[string]string
	// Problems lists footer entries that were ignored as invalid (for
	// example coords with the wrong number of labels).
	Problems []string
}

// HistoryRow is one provenance row.
type HistoryRow struct {
	Op      string            `json:"op"`
	Source  string            `json:"source"`
	At      string            `json:"at"`
	Parents []string          `json:"parents,omitempty"`
	Params  map[string]string `json:"params,omitempty"`
}

type blobRef struct {
	Offset uint64 `json:"offset"`
	Len    uint64 `json:"len"`
}

type footerJSON struct {
	History     []json.RawMessage `json:"history"`
	Metadata    json.RawMessage   `json:"metadata"`
	MetadataRef *blobRef          `json:"metadata_ref"`
	// Footer version 2 (written by tet-py 0.8) adds JSON blobs of zone
	// maps and a secondary index between the payloads and the footer.
	ZoneMapsRef       *blobRef `json:"zone_maps_ref"`
	SecondaryIndexRef *blobRef `json:"secondary_index_ref"`
}

type metadataJSON struct {
	File     map[string]json.RawMessage `json:"file"`
	Datasets map[string]datasetMetaJSON `json:"datasets"`
}

type datasetMetaJSON struct {
	DimNames []string `json:"dim_names"`
	Coords   map[string]struct {
		Labels []string `json:"labels"`
	} `json:"coords"`
	Attrs map[string]json.RawMessage `json:"attrs"`
}

// parseFooter reads the tail and JSON. It sets footerStatus and never
// fails the open; only a footer found intact moves payloadEnd down to
// where it begins (a damaged one does not say where that is). Footer
// bytes must lie after the chunk index, whose bounds parseSuperblock has
// checked.
func (f *File) parseFooter() {
	d := f.data
	n := uint64(len(d))
	damaged := func(format string, args ...any) { f.footerStatus = "damaged: " + fmt.Sprintf(format, args...) }
	lo := f.indexOffset + f.indexLength // first byte a footer may use
	if n < lo+footerTailSize {
		damaged("file too short for a footer tail")
		return
	}
	tail := d[n-footerTailSize:]
	if string(tail[12:16]) != magicFooter {
		damaged("tail magic %q, want %q", tail[12:16], magicFooter)
		return
	}
	version := le.Uint32(tail[8:])
	if version != 1 && version != 2 {
		damaged("footer_version %d, want 1 (or 2, as tet-py writes)", version)
		return
	}
	jl := le.Uint64(tail[0:])
	if jl > n-lo-footerTailSize {
		damaged("json_len %d exceeds the file", jl)
		return
	}
	jsonStart := n - footerTailSize - jl
	payloadEnd := jsonStart
	var fj footerJSON
	if err := json.Unmarshal(d[jsonStart:n-footerTailSize], &fj); err != nil {
		damaged("footer JSON: %v", err)
		return
	}
	if fj.MetadataRef != nil && len(fj.Metadata) > 0 && !bytes.Equal(fj.Metadata, []byte("null")) {
		damaged("both metadata and metadata_ref present")
		return
	}
	metaRaw := []byte(fj.Metadata)
	if r := fj.MetadataRef; r != nil {
		end, ok := addOK(r.Offset, r.Len)
		if !ok || r.Offset < lo || end > jsonStart {
			damaged("metadata_ref [%d, +%d) outside the file before the footer JSON", r.Offset, r.Len)
			return
		}
		metaRaw = d[r.Offset:end]
		payloadEnd = r.Offset
	}
	for _, r := range []*blobRef{fj.ZoneMapsRef, fj.SecondaryIndexRef} {
		if r == nil || version < 2 {
			continue
		}
		end, ok := addOK(r.Offset, r.Len)
		if !ok || r.Offset < lo || end > jsonStart {
			damaged("footer blob [%d, +%d) outside the file before the footer JSON", r.Offset, r.Len)
			return
		}
		payloadEnd = min(payloadEnd, r.Offset)
	}
	for i, raw := range fj.History {
		row, err := parseHistoryRow(raw)
		if err != nil {
			damaged("history row %d: %v", i, err)
			return
		}
		f.Footer.History = append(f.Footer.History, row)
	}
	if len(metaRaw) > 0 && !bytes.Equal(metaRaw, []byte("null")) {
		var m metadataJSON
		if err := json.Unmarshal(metaRaw, &m); err != nil {
			damaged("metadata JSON: %v", err)
			return
		}
		f.pendingMeta = &m
	}
	f.payloadEnd = payloadEnd
	f.footerStatus = "ok"
	if version >= 2 {
		f.zoneRef = fj.ZoneMapsRef
	}
}

// parseHistoryRow accepts the object form and the legacy [op, source, at].
func parseHistoryRow(raw json.RawMessage) (HistoryRow, error) {
	var row HistoryRow
	t := bytes.TrimLeft(raw, " \t\r\n")
	if len(t) > 0 && t[0] == '[' {
		var arr []string
		if err := json.Unmarshal(raw, &arr); err != nil {
			return row, err
		}
		if len(arr) != 3 {
			return row, fmt.Errorf("legacy row has %d elements, want 3", len(arr))
		}
		row.Op, row.Source, row.At = arr[0], arr[1], arr[2]
		return row, nil
	}
	err := json.Unmarshal(raw, &row)
	return row, err
}

// applyMetadata attaches dim names, coords and attrs to the datasets.
// Entries that contradict the directory are dropped and listed in
// Footer.Problems; the footer status then reports them.
func (f *File) applyMetadata() {
	m := f.pendingMeta
	f.pendingMeta = nil
	if m == nil {
		return
	}
	if len(m.File) > 0 {
		f.Footer.FileMeta = jsonStringMap(m.File)
	}
	problem := func(format string, args ...any) {
		f.Footer.Problems = append(f.Footer.Problems, fmt.Sprintf(format, args...))
	}
	for _, name := range sortedKeys(m.Datasets) {
		dm := m.Datasets[name]
		ds, ok := f.byName[name]
		if !ok {
			problem("metadata for unknown dataset %q", name)
			continue
		}
		if dm.DimNames != nil {
			if len(dm.DimNames) != ds.Rank() {
				problem("dataset %q: %d dim_names for rank %d", name, len(dm.DimNames), ds.Rank())
			} else {
				ds.DimNames = dm.DimNames
			}
		}
		for _, dim := range sortedKeys(dm.Coords) {
			c := dm.Coords[dim]
			axis := -1
			for a := 0; a < ds.Rank(); a++ {
				if ds.DimName(a) == dim {
					axis = a
				}
			}
			switch {
			case axis < 0:
				problem("dataset %q: coords for unknown dim %q", name, dim)
			case int64(len(c.Labels)) != ds.Shape[axis]:
				problem("dataset %q: dim %q has %d labels for size %d", name, dim, len(c.Labels), ds.Shape[axis])
			default:
				if ds.Labels == nil {
					ds.Labels = make([][]string, ds.Rank())
				}
				ds.Labels[axis] = c.Labels
			}
		}
		if len(dm.Attrs) > 0 {
			ds.Attrs = jsonStringMap(dm.Attrs)
		}
	}
	if len(f.Footer.Problems) > 0 && f.footerStatus == "ok" {
		f.footerStatus = "damaged: " + f.Footer.Problems[0]
		if k := len(f.Footer.Problems); k > 1 {
			f.footerStatus += " (and " + strconv.Itoa(k-1) + " more)"
		}
	}
}

// jsonStringMap keeps strings as they are and other values as JSON text.
func jsonStringMap(in map[string]json.RawMessage) map[string]string {
	out := make(map[string]string, len(in))
	for k, v := range in {
		var s string
		if json.Unmarshal(v, &s) == nil {
			out[k] = s
		} else {
			out[k] = string(v)
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
