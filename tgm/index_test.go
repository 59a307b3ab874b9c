package tgm

import (
	"testing"

	"github.com/tetsql/tetsql/array"
)

// indexed builds a message of frames with an index frame of type typ
// placed at position at, whose entries are edited by fix before writing.
// Offsets between 24 and 255 take two CBOR bytes, so a placeholder of 100
// keeps the layout while the real offsets are found.
func indexed(t *testing.T, frames []tframe, at int, typ uint16, fix func(off, n []int) ([]int, []int)) []byte {
	t.Helper()
	build := func(off, n []int) []byte {
		idx := metaFrame(t, typ, map[string]any{"offsets": off, "lengths": n}, false)
		fs := append(append(append([]tframe{}, frames[:at]...), idx), frames[at:]...)
		return message(fs, false, 0)
	}
	var k int
	for _, f := range frames {
		if f.typ == FrameDataObject {
			k++
		}
	}
	ph := make([]int, k)
	for i := range ph {
		ph[i] = 100
	}
	m := walkMessage(t, build(ph, ph))
	var off, n []int
	for _, fr := range m {
		if fr.Type == FrameDataObject {
			off, n = append(off, int(fr.Offset)), append(n, int(fr.Length))
		}
	}
	off, n = fix(off, n)
	return build(off, n)
}

// walkMessage lists the frames of a sized message without checking it.
func walkMessage(t *testing.T, msg []byte) []Frame {
	frames, err := walkFrames(msg, len(msg)-postambleSize)
	if err != nil {
		t.Fatal(err)
	}
	return frames
}

func TestIndexFrames(t *testing.T) {
	obj := objectFrame(t, rawDesc(2), f64le(1.5, -2), true)
	obj2 := objectFrame(t, rawDesc(2), f64le(1.5, -2), false)
	frames := []tframe{metaFrame(t, 1, meta("a", "b"), false), obj, obj2}
	same := func(off, n []int) ([]int, []int) { return off, n }
	for _, c := range []struct {
		name string
		at   int
		typ  uint16
		fix  func(off, n []int) ([]int, []int)
		word string // "" = accepted
	}{
		{"header index", 1, FrameHeaderIndex, same, ""},
		{"footer index", 3, FrameFooterIndex, same, ""},
		{"wrong offset", 1, FrameHeaderIndex, func(off, n []int) ([]int, []int) { off[1] += 8; return off, n }, "is not data object 1"},
		{"wrong length", 3, FrameFooterIndex, func(off, n []int) ([]int, []int) { n[0]--; return off, n }, "is not data object 0"},
		{"one entry short", 1, FrameHeaderIndex, func(off, n []int) ([]int, []int) { return off[:1], n[:1] }, "for 2 data objects"},
		{"unequal arrays", 1, FrameHeaderIndex, func(off, n []int) ([]int, []int) { return off, n[:1] }, "1 lengths"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := Scan(indexed(t, frames, c.at, c.typ, c.fix))
			if c.word != "" {
				wantErr(t, err, array.ErrCorrupt, c.word)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := decodeF64(t, f, 0, 1); got[1] != -2 {
				t.Errorf("object 1: %v", got)
			}
		})
	}
}

func TestHashFrames(t *testing.T) {
	hashed := objectFrame(t, rawDesc(2), f64le(1.5, -2), true)
	plain := objectFrame(t, rawDesc(2), f64le(3, 4), false)
	tampered := plain
	tampered.body = append([]byte{}, plain.body...)
	tampered.body[0] ^= 0x40 // a payload byte: the hash frame's entry no longer matches
	hf := func(alg string, hashes ...string) tframe {
		return metaFrame(t, FrameHeaderHash, map[string]any{"algorithm": alg, "hashes": hashes}, false)
	}
	for _, c := range []struct {
		name      string
		frames    []tframe
		scanWord  string // scan error
		decodeErr string // object 1 decode error
		hashedObj bool   // object 1 has a digest
	}{
		{"matching", []tframe{hf("xxh3", hexHash(hashed), hexHash(plain)), hashed, plain}, "", "", true},
		{"entry differs from the inline hash", []tframe{hf("xxh3", hexHash(plain), hexHash(plain)), hashed, plain}, "differs from data object 0's inline hash", "", false},
		{"entry checks an unhashed frame", []tframe{hf("xxh3", hexHash(hashed), hexHash(plain)), hashed, tampered}, "", "hash mismatch", true},
		{"not hex", []tframe{hf("xxh3", "zz", hexHash(plain)), hashed, plain}, "not 16 hex digits", "", false},
		{"count", []tframe{hf("xxh3", hexHash(hashed)), hashed, plain}, "1 hashes for 2 data objects", "", false},
		{"other algorithm ignored", []tframe{hf("md5", "x"), hashed, tampered}, "", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := Scan(message(c.frames, false, flagHashesPresent))
			if c.scanWord != "" {
				wantErr(t, err, array.ErrCorrupt, c.scanWord)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			o := &f.Messages[0].Objects[1]
			if o.Hashed() != c.hashedObj {
				t.Errorf("Hashed() = %v, want %v", o.Hashed(), c.hashedObj)
			}
			_, err = o.Decode(nil, 0)
			if c.decodeErr != "" {
				wantErr(t, err, array.ErrCorrupt, c.decodeErr)
				wantErr(t, f.Verify(), array.ErrCorrupt, "message 0, object 1")
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Verify(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestLastMetadataWinsAndPreceders(t *testing.T) {
	obj := objectFrame(t, rawDesc(2), f64le(1.5, -2), false)
	header := map[string]any{"base": []any{map[string]any{"name": "h"}, map[string]any{"name": "h1", "keep": 1}},
		"_extra_": map[string]any{"from": "header"}}
	footer := map[string]any{"base": []any{map[string]any{"name": "f", "units": "K"},
		map[string]any{"name": "f1", "keep": 2, "_reserved_": map[string]any{"x": 1}}},
		"_extra_": map[string]any{"from": "footer"}, "other": "top"}
	pre := map[string]any{"base": []any{map[string]any{"name": "p", "units": "Pa"}}}
	f, err := Scan(message([]tframe{metaFrame(t, 1, header, false), obj, metaFrame(t, 8, pre, true), obj,
		metaFrame(t, 7, footer, false)}, true, 0))
	if err != nil {
		t.Fatal(err)
	}
	m := f.Messages[0]
	if got := JSON(m.Metadata); got != `{"_extra_":{"from":"footer"},"other":"top"}` {
		t.Errorf("message metadata %s", got)
	}
	if got := JSON(m.Objects[0].Metadata); got != `{"name":"f","units":"K"}` || m.Objects[0].Name != "f" {
		t.Errorf("object 0: %s %s", m.Objects[0].Name, got)
	}
	if got := JSON(m.Objects[1].Metadata); got != `{"keep":2,"name":"p","units":"Pa"}` || m.Objects[1].Name != "p" {
		t.Errorf("object 1: %s %s", m.Objects[1].Name, got)
	}
}
