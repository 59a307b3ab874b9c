package tetcore

import (
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/klauspost/compress/zstd"
)

var (
	encoderOnce sync.Once
	encoder     *zstd.Encoder
)

func sharedEncoder() *zstd.Encoder {
	encoderOnce.Do(func() {
		encoder, _ = zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	})
	return encoder
}

// WriteChunk writes the next chunk (see NextChunk) with its dataset's
// codec. data holds exactly the chunk's elements, row-major, little-endian.
func (w *Writer) WriteChunk(data []byte) error {
	if w.cur < len(w.specs) {
		return w.WriteChunkCodec(data, w.specs[w.cur].Codec)
	}
	return w.WriteChunkCodec(data, CodecRaw)
}

// WriteChunkCodec is WriteChunk with an explicit codec for this chunk.
func (w *Writer) WriteChunkCodec(data []byte, codec Codec) error {
	if w.err != nil {
		return w.err
	}
	if err := w.start(); err != nil {
		return w.fail(err)
	}
	w.skipEmpty()
	if w.cur >= len(w.datasets) {
		return w.fail(errors.New("tetcore: WriteChunk: every chunk was already written"))
	}
	ds := w.datasets[w.cur]
	r := ds.Rank()
	c := Chunk{Linear: w.curLinear, Codec: codec, entry: len(w.entries)}
	ds.ChunkCoords(w.curLinear, c.Coords[:r])
	var start, extent [maxRank]int64
	n := ds.ChunkStart(c.Coords[:r], start[:r], extent[:r])
	c.RawLen = n * int64(ds.DType.Size())
	if int64(len(data)) != c.RawLen {
		return w.fail(fmt.Errorf("tetcore: dataset %q chunk %v: got %d bytes, want %d", ds.Name, c.Coords[:r], len(data), c.RawLen))
	}
	payload := data
	switch codec {
	case CodecRaw:
	case CodecZstd:
		w.scratch = sharedEncoder().EncodeAll(data, w.scratch[:0])
		payload = w.scratch
	default:
		return w.fail(fmt.Errorf("tetcore: invalid codec %d", uint32(codec)))
	}
	c.Offset, c.StoredLen = w.pos, int64(len(payload))
	if _, err := w.bw.Write(payload); err != nil {
		return w.fail(fmt.Errorf("tetcore: write: %w", err))
	}
	w.pos += uint64(len(payload))
	w.entries = append(w.entries, c)
	w.entryDS = append(w.entryDS, w.cur)
	w.curLinear++
	return nil
}

// start writes the superblock, directory and a placeholder index.
func (w *Writer) start() error {
	if w.started {
		return nil
	}
	w.started = true
	var dir []byte
	for _, ds := range w.datasets {
		dir = appendRecord(dir, ds)
	}
	var entries uint64
	for _, ds := range w.datasets {
		entries += uint64(ds.gridCount)
	}
	head := make([]byte, 40, 40+len(dir)+8)
	copy(head, magicSuperblock)
	le.PutUint32(head[4:], 1)
	le.PutUint32(head[8:], uint32(len(w.datasets)))
	idxOff := uint64(superblockSize)
	idxLen := uint64(0)
	if len(w.datasets) > 0 {
		le.PutUint64(head[32:], uint64(len(dir)))
		head = append(head, dir...)
		idxOff = align8(uint64(len(head)))
		head = append(head, make([]byte, idxOff-uint64(len(head)))...)
		idxLen = indexHeaderSize + entries*indexEntrySize
	} else {
		head = head[:superblockSize]
	}
	le.PutUint64(head[16:], idxOff)
	le.PutUint64(head[24:], idxLen)
	if _, err := w.bw.Write(head); err != nil {
		return err
	}
	// The index is written for real in Close; reserve its bytes now.
	zero := make([]byte, 4096)
	for left := idxLen; left > 0; {
		n := min(left, uint64(len(zero)))
		if _, err := w.bw.Write(zero[:n]); err != nil {
			return err
		}
		left -= n
	}
	w.indexOff = idxOff
	w.pos = idxOff + idxLen
	w.entries = make([]Chunk, 0, min(entries, 1<<20))
	return nil
}

func appendRecord(b []byte, ds *Dataset) []byte {
	var h [16]byte
	le.PutUint32(h[0:], uint32(len(ds.Name)))
	le.PutUint32(h[4:], uint32(ds.DType))
	le.PutUint32(h[8:], uint32(ds.Rank()))
	b = append(b, h[:]...)
	b = append(b, ds.Name...)
	b = append(b, make([]byte, align8(16+uint64(len(ds.Name)))-16-uint64(len(ds.Name)))...)
	for _, v := range ds.Shape {
		b = le.AppendUint64(b, uint64(v))
	}
	for _, v := range ds.ChunkShape {
		b = le.AppendUint64(b, uint64(v))
	}
	return b
}

// Close writes the index and footer, syncs, and renames the file into
// place. It fails if a chunk is missing. On any failure the temporary
// file is removed.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if err := w.start(); err != nil {
		return w.fail(err)
	}
	if _, _, _, _, more := w.NextChunk(); more {
		return w.fail(fmt.Errorf("tetcore: Close: dataset %q has chunks not yet written", w.datasets[w.cur].Name))
	}
	if err := w.writeFooter(); err != nil {
		return w.fail(err)
	}
	if err := w.bw.Flush(); err != nil {
		return w.fail(err)
	}
	if err := w.writeIndex(); err != nil {
		return w.fail(err)
	}
	if err := w.fh.Chmod(0o644); err != nil { // CreateTemp made it 0600
		return w.fail(err)
	}
	if err := w.fh.Sync(); err != nil {
		return w.fail(err)
	}
	if err := w.fh.Close(); err != nil {
		return w.fail(err)
	}
	if err := os.Rename(w.tmp, w.path); err != nil {
		return w.fail(err)
	}
	w.err = errors.New("tetcore: writer already closed")
	return nil
}

// Offset is the number of bytes written so far (payload end).
func (w *Writer) Offset() int64 { return int64(w.pos) }

// Abort discards the temporary file.
func (w *Writer) Abort() {
	if w.err == nil {
		w.fail(errors.New("tetcore: writer aborted"))
	}
}

func (w *Writer) fail(err error) error {
	if w.err == nil {
		w.err = err
		w.fh.Close()
		os.Remove(w.tmp)
	}
	return err
}

func (w *Writer) writeIndex() error {
	if len(w.datasets) == 0 {
		return nil
	}
	b := make([]byte, indexHeaderSize, indexHeaderSize+len(w.entries)*indexEntrySize)
	copy(b, magicIndex)
	le.PutUint32(b[4:], 1)
	le.PutUint64(b[8:], uint64(len(w.entries)))
	le.PutUint16(b[16:], w.bps)
	le.PutUint32(b[20:], w.budget)
	for i, c := range w.entries {
		b = le.AppendUint64(b, uint64(w.entryDS[i]))
		for _, v := range c.Coords {
			b = le.AppendUint64(b, uint64(v))
		}
		b = le.AppendUint64(b, c.Offset)
		b = le.AppendUint64(b, uint64(c.RawLen))
		b = le.AppendUint64(b, uint64(c.StoredLen))
		b = le.AppendUint32(b, uint32(c.Codec))
		b = le.AppendUint32(b, 0)
	}
	_, err := w.fh.WriteAt(b, int64(w.indexOff))
	return err
}
