package blosc

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// SparseFrameFile is the name of a sparse frame's header-and-index file
// inside its directory.
const SparseFrameFile = "chunks.b2frame"

// maxFrameFile bounds the size of a sparse frame's chunks.b2frame read
// into memory: it holds only the header, the index and the attributes.
const maxFrameFile = 1 << 30

// ParseSparseDir parses the sparse frame in directory dir: it reads its
// chunks.b2frame (at most 1 GiB) and calls ParseSparseFrame.
func ParseSparseDir(dir string) (*Frame, error) {
	data, err := readBounded(filepath.Join(dir, SparseFrameFile), maxFrameFile)
	if err != nil {
		return nil, fmt.Errorf("blosc: sparse frame %s: %w", dir, err)
	}
	return ParseSparseFrame(dir, data)
}

// ParseSparseFrame parses a sparse frame: data is the content of dir's
// chunks.b2frame (a frame with no data chunks), and dir holds one file per
// stored chunk, named by the chunk's file number as eight upper-case hex
// digits plus ".chunk". Each chunk file's header is read and checked
// against the frame; a missing file is an error. [Frame.ReadChunk] reads
// a chunk's bytes. The Frame refers to data, as ParseFrame's does.
func ParseSparseFrame(dir string, data []byte) (*Frame, error) {
	p := filepath.Join(dir, SparseFrameFile)
	h, data, err := parseFrameHeader(data)
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, p)
	}
	if h.frameType != frameSparse {
		return nil, fmt.Errorf("blosc: %s is not a sparse frame (frame type %d): %w", p, h.frameType, ErrCorrupt)
	}
	f, err := parseFrame(h, data)
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, p)
	}
	f.dir = dir
	for i := range f.Chunks {
		c := &f.Chunks[i]
		if c.Kind != ChunkStored {
			continue
		}
		if c.Size, err = f.StatChunk(i); err != nil {
			return nil, fmt.Errorf("blosc: sparse frame %s: chunk %d: %w", dir, i, err)
		}
	}
	return f, nil
}

// chunkPath names the file of chunk file number n. n is at most
// 0xFFFFFFFF (checked when the index is read), so the name is always eight
// hex digits and never leaves the directory.
func (f *Frame) chunkPath(n int64) string {
	return filepath.Join(f.dir, fmt.Sprintf("%08X.chunk", n))
}

// StatChunk checks the file of stored chunk i of a sparse frame as it is
// now: it must exist, hold exactly one chunk (its header's cbytes is the
// file size) and decode to chunk i of the frame. It returns the file size.
func (f *Frame) StatChunk(i int) (int64, error) {
	if i < 0 || i >= len(f.Chunks) || !f.Sparse || f.Chunks[i].Kind != ChunkStored {
		return 0, fmt.Errorf("blosc: chunk %d is no stored chunk of a sparse frame: %w", i, ErrNoChunk)
	}
	fh, err := openRegular(f.chunkPath(f.Chunks[i].Offset))
	if err != nil {
		return 0, fmt.Errorf("chunk file: %w: %w", err, ErrCorrupt)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return 0, err
	}
	var head [32]byte
	k, err := io.ReadFull(fh, head[:])
	// A short or empty file is left to checkDataChunk, which reports the
	// missing header bytes as corrupt (ReadFull says io.EOF for 0 bytes).
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return 0, fmt.Errorf("chunk file %s: %w", fh.Name(), err)
	}
	ch, err := f.checkDataChunk(i, head[:k], st.Size())
	if err != nil {
		return 0, fmt.Errorf("chunk file %s: %w", fh.Name(), err)
	}
	if ch.cbytes != st.Size() {
		return 0, fmt.Errorf("chunk file %s: %d bytes, its header says %d: %w", fh.Name(), st.Size(), ch.cbytes, ErrCorrupt)
	}
	return ch.cbytes, nil
}

// ReadChunk returns the stored bytes of chunk i, from the frame for a
// contiguous frame (a view, not a copy) or from its file for a sparse one
// (checked again, as the file may have changed since it was parsed). It
// returns nil for a special chunk, which has no bytes.
func (f *Frame) ReadChunk(i int) ([]byte, error) {
	if !f.Sparse {
		return f.ChunkBytes(i)
	}
	if i < 0 || i >= len(f.Chunks) {
		return nil, fmt.Errorf("blosc: chunk %d outside [0, %d): %w", i, len(f.Chunks), ErrNoChunk)
	}
	c := f.Chunks[i]
	if c.Kind != ChunkStored {
		return nil, nil
	}
	b, err := readBounded(f.chunkPath(c.Offset), c.Size)
	if err != nil {
		return nil, fmt.Errorf("blosc: chunk %d: %w", i, err)
	}
	if int64(len(b)) != c.Size {
		return nil, fmt.Errorf("blosc: chunk %d: file has %d bytes, was %d: %w", i, len(b), c.Size, ErrChanged)
	}
	if _, err := f.checkDataChunk(i, b, c.Size); err != nil {
		return nil, fmt.Errorf("blosc: chunk %d: %w", i, err)
	}
	return b, nil
}

// readBounded reads the file at p, refusing one larger than limit bytes.
func readBounded(p string, limit int64) ([]byte, error) {
	fh, err := openRegular(p)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	// Sized from the file once (a chunk file is read whole on every
	// read): ReadAll from nothing would regrow and copy its buffer.
	var buf bytes.Buffer
	if st, err := fh.Stat(); err == nil && st.Size() <= limit {
		buf.Grow(int(st.Size()) + bytes.MinRead)
	}
	if _, err := buf.ReadFrom(io.LimitReader(fh, limit+1)); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes: %w", p, limit, ErrTooLarge)
	}
	return b, nil
}

// openRegular opens p for reading if it is a regular file (after
// symlinks): opening a FIFO or a device could block or never end.
func openRegular(p string) (*os.File, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", p, ErrNotRegular)
	}
	return os.Open(p)
}
