package tgm

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/tetsql/tetsql/array"
)

// The fixed parts of a message.
const (
	preambleSize  = 24
	postambleSize = 24
	wireVersion   = 3
)

var (
	magic    = []byte("TENSOGRM")
	endMagic = []byte("39277777")
)

// Sniff reports whether head (the first bytes of a file) starts a
// Tensogram message of any wire version.
func Sniff(head []byte) bool { return bytes.HasPrefix(head, magic) }

// File is the parsed structure of a whole file: its messages, each with
// its metadata and data objects. It holds slices of the bytes given to
// Scan (nothing is copied), which must stay unchanged while it is used.
type File struct {
	// Messages in file order.
	Messages []Message
	// Size is the length of the bytes scanned.
	Size int64
	// Skipped counts bytes outside every message: garbage between
	// messages or after the last one, which the scan passes over as the
	// reference scanner does (files written by Tensogram have none).
	Skipped int64
	// Garbage is the offset of the first skipped byte that is not zero,
	// -1 when there is none. Zero bytes pass for padding; anything else
	// may be a damaged message (a flipped byte of its magic hides it and
	// renumbers the messages after it), which Format refuses.
	Garbage int64
}

// Scan parses every message of a file held in data. Messages are found
// by a forward scan: each starts with the magic and either declares its
// total length or (streaming, total length 0) is delimited by walking its
// frames to the postamble. Bytes between messages that hold no magic are
// skipped and counted (File.Skipped). Every structural rule is checked
// (see the package documentation); a message that fails one, a message
// cut short by the end of the file, and a file holding no message are
// errors wrapping array.ErrCorrupt, array.ErrTruncated or
// array.ErrUnsupported. Data objects are not decoded (see Object.Decode).
func Scan(data []byte) (*File, error) {
	f := &File{Size: int64(len(data)), Garbage: -1}
	pos := 0
	skip := func(b []byte, at int) {
		f.Skipped += int64(len(b))
		if i := bytes.IndexFunc(b, func(r rune) bool { return r != 0 }); i >= 0 && f.Garbage < 0 {
			f.Garbage = int64(at + i)
		}
	}
	for pos < len(data) {
		if !bytes.HasPrefix(data[pos:], magic) {
			i := bytes.Index(data[pos:], magic)
			if i < 0 {
				rest := data[pos:]
				if bytes.HasPrefix(magic, rest[:min(len(rest), len(magic))]) {
					return nil, fmt.Errorf("tgm: offset %d: message cut inside its magic (%d bytes remain): %w",
						pos, len(rest), array.ErrTruncated)
				}
				skip(rest, pos)
				break
			}
			skip(data[pos:pos+i], pos)
			pos += i
		}
		m, err := scanMessage(data, pos, len(f.Messages))
		if err != nil {
			return nil, err
		}
		f.Messages = append(f.Messages, m)
		pos += int(m.Length)
	}
	if len(f.Messages) == 0 {
		return nil, fmt.Errorf("tgm: no Tensogram message in %d bytes (magic %q not found): %w",
			len(data), magic, array.ErrCorrupt)
	}
	return f, nil
}

// scanMessage parses the message whose magic is at data[pos].
func scanMessage(data []byte, pos, index int) (Message, error) {
	where := fmt.Sprintf("tgm: message %d (offset %d)", index, pos)
	rest := data[pos:]
	if len(rest) < preambleSize+postambleSize {
		return Message{}, fmt.Errorf("%s: %d bytes remain, less than a preamble and a postamble: %w",
			where, len(rest), array.ErrTruncated)
	}
	version := binary.BigEndian.Uint16(rest[8:])
	if version != wireVersion {
		return Message{}, fmt.Errorf("%s: wire version %d (only version %d is read): %w",
			where, version, wireVersion, array.ErrUnsupported)
	}
	flags := binary.BigEndian.Uint16(rest[10:])
	total := binary.BigEndian.Uint64(rest[16:])
	var (
		msg    []byte
		frames []Frame
		post   int
		err    error
	)
	if total == 0 {
		frames, post, err = walkStreaming(rest)
		if err != nil {
			return Message{}, fmt.Errorf("%s, streaming: %w", where, err)
		}
		msg = rest[:post+postambleSize]
		if tl := binary.BigEndian.Uint64(msg[post+8:]); tl != 0 && tl != uint64(len(msg)) {
			return Message{}, fmt.Errorf("%s, streaming: postamble total_length %d, message is %d bytes: %w",
				where, tl, len(msg), array.ErrCorrupt)
		}
	} else {
		if total < preambleSize+postambleSize {
			return Message{}, fmt.Errorf("%s: total_length %d is less than a preamble and a postamble: %w",
				where, total, array.ErrCorrupt)
		}
		if total > uint64(len(rest)) {
			return Message{}, fmt.Errorf("%s: total_length %d but only %d bytes remain in the file: %w",
				where, total, len(rest), array.ErrTruncated)
		}
		msg = rest[:total]
		post = len(msg) - postambleSize
		if !bytes.Equal(msg[post+16:], endMagic) {
			return Message{}, fmt.Errorf("%s: no end magic %q at the end of its %d bytes: %w",
				where, endMagic, total, array.ErrCorrupt)
		}
		if tl := binary.BigEndian.Uint64(msg[post+8:]); tl != total {
			return Message{}, fmt.Errorf("%s: postamble total_length %d differs from the preamble's %d: %w",
				where, tl, total, array.ErrCorrupt)
		}
		frames, err = walkFrames(msg, post)
		if err != nil {
			return Message{}, fmt.Errorf("%s: %w", where, err)
		}
	}
	m := Message{Index: index, Offset: int64(pos), Length: int64(len(msg)), Flags: flags,
		Streaming: total == 0, Hashed: flags&flagHashesPresent != 0, Frames: frames, data: msg}
	if err := m.parse(post); err != nil {
		return Message{}, fmt.Errorf("%s: %w", where, err)
	}
	return m, nil
}

// walkStreaming walks the frames of a streaming message (msg runs to the
// end of the file) and returns them with the offset of the postamble.
func walkStreaming(msg []byte) ([]Frame, int, error) {
	frames, pos, err := walk(msg, len(msg), true)
	if err != nil {
		return nil, 0, err
	}
	if pos+postambleSize > len(msg) {
		return nil, 0, fmt.Errorf("no postamble after the last frame (ends at %d, %d bytes remain): %w",
			pos, len(msg)-pos, array.ErrTruncated)
	}
	if !bytes.Equal(msg[pos+16:pos+24], endMagic) {
		return nil, 0, fmt.Errorf("offset %d: neither a frame nor a postamble with the end magic: %w",
			pos, array.ErrCorrupt)
	}
	return frames, pos, nil
}

// walkFrames walks the frames of a message of known length, whose
// postamble is at post: the frames must end where the postamble begins
// (up to the padding of the last one).
func walkFrames(msg []byte, post int) ([]Frame, error) {
	frames, pos, err := walk(msg, post, false)
	if err != nil {
		return nil, err
	}
	end := preambleSize
	if len(frames) > 0 {
		last := frames[len(frames)-1]
		end = int(last.Offset + last.Length)
	}
	if pos != post && end != post {
		return nil, fmt.Errorf("offset %d: %d bytes before the postamble are neither a frame nor padding: %w",
			pos, post-pos, array.ErrCorrupt)
	}
	return frames, nil
}

// walk reads frame headers from offset 24 of msg while "FR" starts the
// bytes at the cursor, checking each frame against limit (the postamble
// of a message of known length; the end of the file for a streaming one).
// It returns the frames and the cursor where the walk stopped, aligned to
// 8 bytes after the last frame. Each frame takes at least 28 bytes, so the
// walk is bounded by len(msg)/28 steps.
func walk(msg []byte, limit int, streaming bool) ([]Frame, int, error) {
	var frames []Frame
	pos := preambleSize
	for pos+2 <= limit && msg[pos] == 'F' && msg[pos+1] == 'R' {
		fr, err := readFrameHeader(msg, pos, limit, streaming)
		if err != nil {
			return nil, 0, fmt.Errorf("frame %d at offset %d: %w", len(frames), pos, err)
		}
		frames = append(frames, fr)
		pos += int(fr.Length)
		pos += (8 - pos%8) % 8
	}
	return frames, pos, nil
}
