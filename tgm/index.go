package tgm

import (
	"fmt"
	"strconv"

	"github.com/tetsql/tetsql/array"
)

// checkIndex holds an index frame (type 2 or 6) to the data objects the
// walk found: the same count, and each entry's offset and length those of
// the object's frame. The walk is the source of truth; an index that
// disagrees with it is corruption, not an alternative reading.
func (m *Message) checkIndex(fr Frame) error {
	where := fmt.Sprintf("%s frame at offset %d", fr.TypeName(), fr.Offset)
	v, err := decodeCBOR(fr.body(m.data))
	if err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	md := asMap(v)
	offsets, ok1 := md["offsets"].([]any)
	lengths, ok2 := md["lengths"].([]any)
	if md == nil || !ok1 || !ok2 {
		return fmt.Errorf("%s: not a map of offsets and lengths arrays: %w", where, array.ErrCorrupt)
	}
	if len(offsets) != len(lengths) || len(offsets) != len(m.Objects) {
		return fmt.Errorf("%s: %d offsets and %d lengths for %d data objects: %w",
			where, len(offsets), len(lengths), len(m.Objects), array.ErrCorrupt)
	}
	for i, o := range m.Objects {
		off, ok1 := asUint(offsets[i])
		n, ok2 := asUint(lengths[i])
		if !ok1 || !ok2 || off != uint64(o.frame.Offset) || n != uint64(o.frame.Length) {
			return fmt.Errorf("%s: entry %d (offset %v, length %v) is not data object %d's frame (offset %d, length %d): %w",
				where, i, offsets[i], lengths[i], i, o.frame.Offset, o.frame.Length, array.ErrCorrupt)
		}
	}
	return nil
}

// checkHashFrame holds a hash frame (type 3 or 5) to the objects' inline
// hash slots. An object frame without its HASH_PRESENT bit takes the hash
// frame's entry as the digest its body must have.
func (m *Message) checkHashFrame(fr Frame) error {
	where := fmt.Sprintf("%s frame at offset %d", fr.TypeName(), fr.Offset)
	v, err := decodeCBOR(fr.body(m.data))
	if err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	md := asMap(v)
	hashes, ok := md["hashes"].([]any)
	if md == nil || !ok {
		return fmt.Errorf("%s: not a map with a hashes array: %w", where, array.ErrCorrupt)
	}
	if alg, _ := md["algorithm"].(string); alg != "xxh3" {
		// Nothing to check these digests with; the inline slots remain.
		return nil
	}
	if len(hashes) != len(m.Objects) {
		return fmt.Errorf("%s: %d hashes for %d data objects: %w", where, len(hashes), len(m.Objects), array.ErrCorrupt)
	}
	for i := range m.Objects {
		o := &m.Objects[i]
		s, _ := hashes[i].(string)
		h, err := strconv.ParseUint(s, 16, 64)
		if err != nil || len(s) != 16 {
			return fmt.Errorf("%s: entry %d %v is not 16 hex digits: %w", where, i, hashes[i], array.ErrCorrupt)
		}
		if o.hashed {
			if h != o.hash {
				return fmt.Errorf("%s: entry %d %016x differs from data object %d's inline hash %016x (hash mismatch): %w",
					where, i, h, i, o.hash, array.ErrCorrupt)
			}
			continue
		}
		o.hash, o.hashed = h, true
	}
	return nil
}

// objectName is the name an object goes by: base[i].name when it is a
// non-empty string, else base[i].mars.param, else object_<i>.
func objectName(entry map[string]any, i int) string {
	if s, ok := entry["name"].(string); ok && s != "" {
		return s
	}
	if mars := asMap(entry["mars"]); mars != nil {
		switch p := mars["param"].(type) {
		case nil:
		case string:
			if p != "" {
				return p
			}
		case int64:
			return strconv.FormatInt(p, 10)
		case uint64:
			return strconv.FormatUint(p, 10)
		case float64:
			return pyFloat(p)
		default:
			return string(AppendJSON(nil, p))
		}
	}
	return "object_" + strconv.Itoa(i)
}

// pyFloat formats f as Python's str(float) does for ordinary values
// ("2.0", "0.5", "1e+20"), so names match the reference's.
func pyFloat(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	for _, c := range s {
		if c == '.' || c == 'e' || c == 'n' || c == 'N' || c == 'I' {
			return s
		}
	}
	return s + ".0"
}
