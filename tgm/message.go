package tgm

import (
	"encoding/binary"
	"fmt"

	"github.com/tetsql/tetsql/array"
)

// Message is one message of a file.
type Message struct {
	// Index is the message's position in the file (0-based).
	Index int
	// Offset and Length locate the message in the file, preamble through
	// postamble.
	Offset, Length int64
	// Flags are the preamble's message flags (advisory).
	Flags uint16
	// Streaming reports a message written in streaming mode: its preamble
	// declares total_length 0.
	Streaming bool
	// Hashed reports the preamble's HASHES_PRESENT flag.
	Hashed bool
	// Frames are the message's frames in order.
	Frames []Frame
	// Metadata is the message-level metadata: every top-level key of the
	// metadata frame in force except "base" (so "_extra_", "_reserved_"
	// and any unknown key); never nil.
	Metadata map[string]any
	// Objects are the message's data objects in order.
	Objects []Object

	data []byte // the message's bytes
}

// parse interprets the frames the walk found: phase order, metadata,
// index and hash frames checked against the data objects, preceders.
// post is the offset of the postamble.
func (m *Message) parse(post int) error {
	var (
		meta       map[string]any
		preceders  = map[int]map[string]any{}
		pending    map[string]any // a preceder waiting for its object
		havePend   bool
		indexes    []Frame
		hashFrames []Frame
		lastPhase  int
		firstFoot  = -1
	)
	for i, fr := range m.Frames {
		p := phase(fr.Type)
		if p < lastPhase {
			return fmt.Errorf("%s frame at offset %d after a frame of a later phase: %w",
				fr.TypeName(), fr.Offset, array.ErrCorrupt)
		}
		lastPhase = p
		if p == 2 && firstFoot < 0 {
			firstFoot = int(fr.Offset)
		}
		if havePend && fr.Type != FrameDataObject {
			return fmt.Errorf("preceder_metadata frame not followed by a data object frame (frame %d is %s): %w",
				i, fr.TypeName(), array.ErrCorrupt)
		}
		if fr.Type != FrameDataObject {
			// Non-object frames are small and parsed now: check them now.
			if err := fr.checkHash(m.data); err != nil {
				return err
			}
		}
		switch fr.Type {
		case FrameHeaderMetadata, FrameFooterMetadata:
			md, err := decodeMetadata(fr.body(m.data))
			if err != nil {
				return fmt.Errorf("%s frame at offset %d: %w", fr.TypeName(), fr.Offset, err)
			}
			meta = md // the last metadata frame wins, as in the reference decoder
		case FrameHeaderIndex, FrameFooterIndex:
			indexes = append(indexes, fr)
		case FrameHeaderHash, FrameFooterHash:
			hashFrames = append(hashFrames, fr)
		case FramePrecederMetadata:
			entry, err := decodePreceder(fr.body(m.data))
			if err != nil {
				return fmt.Errorf("preceder_metadata frame at offset %d: %w", fr.Offset, err)
			}
			pending, havePend = entry, true
		case FrameDataObject:
			o, err := parseObject(m.data, fr, len(m.Objects))
			if err != nil {
				if herr := fr.checkHash(m.data); herr != nil {
					err = herr // the damage, rather than what it did to the descriptor
				}
				return fmt.Errorf("data object %d (frame at offset %d): %w", len(m.Objects), fr.Offset, err)
			}
			if havePend {
				preceders[o.Index] = pending
				pending, havePend = nil, false
			}
			m.Objects = append(m.Objects, o)
		}
	}
	if havePend {
		return fmt.Errorf("preceder_metadata frame is the last frame (no data object follows): %w", array.ErrCorrupt)
	}
	if firstFoot < 0 {
		firstFoot = post
	}
	if ff := binary.BigEndian.Uint64(m.data[post:]); ff != uint64(firstFoot) {
		return fmt.Errorf("postamble first_footer_offset %d, the first footer frame or the postamble is at %d: %w",
			ff, firstFoot, array.ErrCorrupt)
	}
	for _, fr := range indexes {
		if err := m.checkIndex(fr); err != nil {
			return err
		}
	}
	for _, fr := range hashFrames {
		if err := m.checkHashFrame(fr); err != nil {
			return err
		}
	}
	return m.applyMetadata(meta, preceders)
}

// decodeMetadata decodes a metadata frame's body: a CBOR map.
func decodeMetadata(body []byte) (map[string]any, error) {
	v, err := decodeCBOR(body)
	if err != nil {
		return nil, err
	}
	md, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("metadata is a CBOR %T, not a map: %w", v, array.ErrCorrupt)
	}
	if b, ok := md["base"]; ok {
		if _, ok := b.([]any); !ok {
			return nil, fmt.Errorf("metadata base is a %T, not an array: %w", b, array.ErrCorrupt)
		}
	}
	return md, nil
}

// decodePreceder decodes a preceder frame: metadata whose base holds
// exactly one map, the next object's metadata.
func decodePreceder(body []byte) (map[string]any, error) {
	md, err := decodeMetadata(body)
	if err != nil {
		return nil, err
	}
	base, _ := md["base"].([]any)
	if len(base) != 1 {
		return nil, fmt.Errorf("base has %d entries, a preceder needs exactly one: %w", len(base), array.ErrCorrupt)
	}
	entry, ok := base[0].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("base entry is a %T, not a map: %w", base[0], array.ErrCorrupt)
	}
	return entry, nil
}

// applyMetadata sets the message metadata and each object's metadata and
// name from the metadata frame in force and the preceders.
func (m *Message) applyMetadata(meta map[string]any, preceders map[int]map[string]any) error {
	m.Metadata = withoutKey(meta, "base")
	if m.Metadata == nil {
		m.Metadata = map[string]any{}
	}
	base, _ := meta["base"].([]any)
	if len(base) > len(m.Objects) {
		return fmt.Errorf("metadata base has %d entries for %d data objects: %w",
			len(base), len(m.Objects), array.ErrCorrupt)
	}
	for i := range m.Objects {
		entry := map[string]any{}
		if i < len(base) {
			e, ok := base[i].(map[string]any)
			if !ok {
				return fmt.Errorf("metadata base[%d] is a %T, not a map: %w", i, base[i], array.ErrCorrupt)
			}
			for k, v := range e {
				entry[k] = v
			}
		}
		for k, v := range preceders[i] {
			entry[k] = v
		}
		o := &m.Objects[i]
		delete(entry, "_reserved_") // entry is this object's own copy
		o.Metadata = entry
		o.Name = objectName(entry, i)
		o.Message = m.Index
		o.FrameOffset = m.Offset + o.frame.Offset
	}
	return nil
}
