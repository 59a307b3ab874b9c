package tgm

import (
	"errors"
	"fmt"

	"github.com/tetsql/tetsql/array"
	"github.com/zeebo/xxh3"
)

// VerifyHash checks the object's frame body against its xxh3-64 digest
// (the frame's inline hash, or a hash frame's entry when the frame has
// none). An object without a digest passes. A mismatch wraps
// array.ErrCorrupt and names the message and the object.
func (o *Object) VerifyHash() error {
	if err := o.verifyHash(); err != nil {
		return fmt.Errorf("tgm: %s: %w", o.where(), err)
	}
	return nil
}

func (o *Object) verifyHash() error {
	if !o.hashed {
		return nil
	}
	if got := xxh3.Hash(o.frame.body(o.msg)); got != o.hash {
		return fmt.Errorf("xxh3-64 hash mismatch: frame at offset %d stores %016x, its body hashes to %016x: %w",
			o.FrameOffset, o.hash, got, array.ErrCorrupt)
	}
	return nil
}

// Verify checks every hash of every frame of the message: each frame
// with its HASH_PRESENT bit against its inline slot, and each data object
// against the digest a hash frame gives it. It returns every mismatch
// found (joined), or nil.
func (m *Message) Verify() error {
	var errs []error
	for _, fr := range m.Frames {
		if fr.Type == FrameDataObject {
			continue // checked below, with hash frame entries too
		}
		if err := fr.checkHash(m.data); err != nil {
			errs = append(errs, fmt.Errorf("tgm: message %d: %w", m.Index, err))
		}
	}
	for i := range m.Objects {
		if err := m.Objects[i].VerifyHash(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Verify checks every hash of every message (see Message.Verify) and
// returns every mismatch found (joined), or nil.
func (f *File) Verify() error {
	var errs []error
	for i := range f.Messages {
		if err := f.Messages[i].Verify(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// HashedFrames counts the frames of the file that carry a digest to
// check: frames with the HASH_PRESENT bit, and data objects given one by
// a hash frame. It tells a verification that found nothing wrong from one
// that had nothing to check.
func (f *File) HashedFrames() int {
	n := 0
	for _, m := range f.Messages {
		for _, fr := range m.Frames {
			if fr.Type != FrameDataObject && fr.HashPresent() {
				n++
			}
		}
		for _, o := range m.Objects {
			if o.hashed {
				n++
			}
		}
	}
	return n
}
