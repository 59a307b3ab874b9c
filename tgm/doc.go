// Package tgm reads Tensogram files (wire version 3): self-describing
// messages of N-dimensional data objects with CBOR metadata, as written
// by ECMWF's Tensogram library.
//
// [Scan] parses a whole file held in memory into a [File]: its messages
// (each with its frames, message-level metadata and data objects) in file
// order. Scanning checks every structural rule before anything is handed
// out: preamble and postamble (magic, version 3, mirrored total length,
// first_footer_offset), every frame (the FR marker, a known type, a length
// that fits the message, the ENDF marker), the phase order header → data
// → footer (any order inside a phase), index frames against the data
// objects the walk finds, hash frames against the objects' inline hashes,
// and the hashes of the small frames it parses (metadata, index, hash,
// preceder). Streaming messages (total length 0) are delimited by walking
// their frames; a message cut short by the end of the file is an error.
// No count or size read from the file is used before it is checked
// against the bytes, and every walk advances, so scanning is bounded by
// the file's size.
//
// Metadata follows the reference decoder (version 0.24.0): when a message
// has both a header and a footer metadata frame the last one wins; a
// preceder frame's entry is merged into the following object's base
// entry, the preceder winning; base may be shorter than the object list,
// not longer. Metadata values are plain Go values (see normalize in
// cbor.go): maps with string keys, []any, string, []byte, bool, nil,
// int64, uint64 (above MaxInt64 only), float64, *big.Int and [Tag];
// [AppendJSON] renders them as JSON.
//
// [Object.Decode] decodes one data object: decompression (none, zstd,
// lz4 in its size-prepended block layout, blosc2), the shuffle filter,
// simple_packing at any width from 0 to 64 bits or the byte order of the
// stored elements, and NaN / ±Inf masks (methods none, rle, roaring,
// zstd, lz4, blosc2). Values come out little-endian in the element type
// [Object.Type] names: float16 as f16, bfloat16 widened exactly to f32,
// simple_packing objects as f64, integers as themselves; complex and
// bitmask dtypes, other encodings and filters, and the compressions szip,
// zfp and sz3 are refused with errors naming them (array.ErrUnsupported),
// only when that object is decoded. An object whose frame carries a hash
// is verified before it is decoded. [File.Verify] checks every hash of a
// file.
//
// [Format] is the array.Format over a file: objects grouped by name into
// datasets (stacked along a leading `message` axis when every message has
// one of the name with the same type and shape), one object per chunk,
// hashes checked before every decode, and the tgm_messages and
// tgm_objects tables (array.TableProvider). docs/SQL.md has the mapping.
//
// Errors wrap the array package's sentinels (ErrCorrupt, ErrTruncated,
// ErrUnsupported, ErrTooLarge) and name the message and object they
// concern.
package tgm
