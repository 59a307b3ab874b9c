package main

import (
	"bytes"
	"flag"
	"fmt"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/b2nd"
	"github.com/tetsql/tetsql/tetcore"
)

// cmdConvert writes the array of a .b2nd file to a .tet file with the
// same chunk shape (so chunk i of one is chunk i of the other), dim names
// and dtype, no labels, then reopens the .tet and compares every decoded
// chunk with the .b2nd's byte for byte.
func cmdConvert(args []string) error {
	fs := flag.NewFlagSet("convert", flag.ExitOnError)
	codecS := fs.String("codec", "zstd", "codec of the .tet chunks: zstd or raw")
	fs.Parse(args)
	if fs.NArg() != 2 {
		return fmt.Errorf("convert: want IN.b2nd OUT.tet")
	}
	codec := tetcore.CodecZstd
	switch *codecS {
	case "zstd":
	case "raw":
		codec = tetcore.CodecRaw
	default:
		return fmt.Errorf("convert: codec %q: want zstd or raw", *codecS)
	}
	in, out := fs.Arg(0), fs.Arg(1)
	src, err := b2nd.Open(in, array.Options{})
	if err != nil {
		return err
	}
	defer src.Close()
	a := src.Arrays()[0]
	info := a.Info()
	dt, ok := tetcore.DTypeOf(info.DType)
	if !ok {
		return fmt.Errorf("convert: %s: dtype %v has no .tet counterpart", in, info.DType)
	}
	w, err := tetcore.Create(out)
	if err != nil {
		return err
	}
	err = w.AddDataset(tetcore.DatasetSpec{Name: "t", DType: dt, Shape: info.Shape,
		ChunkShape: info.ChunkShape, Codec: codec, DimNames: info.DimNames})
	if err != nil {
		w.Abort()
		return fmt.Errorf("convert: %w", err)
	}
	var buf []byte
	for id := int64(0); ; id++ {
		if _, _, _, _, ok := w.NextChunk(); !ok {
			break
		}
		if buf, err = a.ReadChunk(id, buf); err != nil {
			w.Abort()
			return fmt.Errorf("convert: %w", err)
		}
		if err := w.WriteChunk(buf); err != nil {
			w.Abort()
			return fmt.Errorf("convert: chunk %d: %w", id, err)
		}
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("convert: %w", err)
	}
	return compareChunks(a, out)
}

// compareChunks checks that the .tet file at path holds, chunk by chunk,
// the bytes a (the .b2nd array) decodes to.
func compareChunks(a array.Array, path string) error {
	ts, err := tetcore.Format.Open(path, array.Options{})
	if err != nil {
		return err
	}
	defer ts.Close()
	if len(ts.Arrays()) != 1 {
		return fmt.Errorf("convert: %s has %d arrays, want 1", path, len(ts.Arrays()))
	}
	b := ts.Arrays()[0]
	ia, ib := a.Info(), b.Info()
	if ia.ChunkCount() != ib.ChunkCount() || fmt.Sprint(ia.Shape, ia.ChunkShape, ia.DimNames) != fmt.Sprint(ib.Shape, ib.ChunkShape, ib.DimNames) {
		return fmt.Errorf("convert: %s: geometry %v %v %v, the .b2nd has %v %v %v", path, ib.Shape, ib.ChunkShape, ib.DimNames, ia.Shape, ia.ChunkShape, ia.DimNames)
	}
	var ba, bb []byte
	for id := range ia.ChunkCount() {
		if ba, err = a.ReadChunk(id, ba); err != nil {
			return err
		}
		cb, err := b.ReadChunk(id, bb)
		if err != nil {
			return err
		}
		if !bytes.Equal(ba, cb) {
			return fmt.Errorf("convert: %s: chunk %d differs from the .b2nd's", path, id)
		}
		if ci, _ := b.Chunk(id); !ci.InPlace {
			bb = cb
		}
	}
	fmt.Printf("%s: %d chunks of %v, equal to the .b2nd's\n", path, ia.ChunkCount(), ia.ChunkShape)
	return nil
}
