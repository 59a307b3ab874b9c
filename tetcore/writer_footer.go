package tetcore

import (
	"encoding/json"
	"fmt"
)

type datasetMetaOut struct {
	DimNames []string                       `json:"dim_names,omitempty"`
	Coords   map[string]map[string][]string `json:"coords,omitempty"`
	Attrs    map[string]string              `json:"attrs,omitempty"`
}

type metadataOut struct {
	File     map[string]string         `json:"file,omitempty"`
	Datasets map[string]datasetMetaOut `json:"datasets,omitempty"`
}

type footerOut struct {
	History     []HistoryRow    `json:"history,omitempty"`
	Metadata    *metadataOut    `json:"metadata,omitempty"`
	MetadataRef *map[string]any `json:"metadata_ref,omitempty"`
}

// metadata builds the metadata object, or nil when there is none.
func (w *Writer) metadata() *metadataOut {
	m := &metadataOut{File: w.fileMeta, Datasets: map[string]datasetMetaOut{}}
	for i, s := range w.specs {
		var dm datasetMetaOut
		dm.DimNames, dm.Attrs = s.DimNames, s.Attrs
		for a, labels := range s.Labels {
			if labels == nil {
				continue
			}
			if dm.Coords == nil {
				dm.Coords = map[string]map[string][]string{}
			}
			dm.Coords[w.datasets[i].DimName(a)] = map[string][]string{"labels": labels}
		}
		if dm.Coords != nil && dm.DimNames == nil {
			// Coords are keyed by dimension name: name the axes d0, d1, …
			// so that the keys refer to axes for every reader.
			dm.DimNames = make([]string, len(s.Shape))
			for a := range dm.DimNames {
				dm.DimNames[a] = w.datasets[i].DimName(a)
			}
		}
		if dm.DimNames != nil || dm.Coords != nil || len(dm.Attrs) > 0 {
			m.Datasets[s.Name] = dm
		}
	}
	if len(m.File) == 0 && len(m.Datasets) == 0 {
		return nil
	}
	return m
}

// writeFooter appends [spill][footer JSON][json_len][version][THST] when
// there is anything to say (or ForceFooter was called), and sets flag 0.
func (w *Writer) writeFooter() error {
	meta := w.metadata()
	if meta == nil && len(w.history) == 0 && !w.footer {
		return nil
	}
	f := footerOut{History: w.history, Metadata: meta}
	js, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("tetcore: footer: %w", err)
	}
	if len(js) > maxInlineFooter && meta != nil {
		spill, err := json.Marshal(meta)
		if err != nil {
			return fmt.Errorf("tetcore: footer: %w", err)
		}
		ref := map[string]any{"offset": w.pos, "len": len(spill)}
		if _, err := w.bw.Write(spill); err != nil {
			return err
		}
		w.pos += uint64(len(spill))
		f.Metadata, f.MetadataRef = nil, &ref
		if js, err = json.Marshal(f); err != nil {
			return fmt.Errorf("tetcore: footer: %w", err)
		}
	}
	var tail [footerTailSize]byte
	le.PutUint64(tail[0:], uint64(len(js)))
	le.PutUint32(tail[8:], 1)
	copy(tail[12:], magicFooter)
	if _, err := w.bw.Write(js); err != nil {
		return err
	}
	if _, err := w.bw.Write(tail[:]); err != nil {
		return err
	}
	if err := w.bw.Flush(); err != nil {
		return err
	}
	var flags [4]byte
	le.PutUint32(flags[:], flagFooter)
	_, err = w.fh.WriteAt(flags[:], 12)
	return err
}
