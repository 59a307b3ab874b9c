// Package b2nd parses Blosc2 contiguous frames holding N-dimensional
// arrays: files written by python-blosc2 and C-Blosc2 (the 'b2nd'
// metalayer) and by the older Caterva library (the 'caterva' metalayer).
//
// [Parse] reads a whole frame from bytes: the fixed header, the
// metalayers, the index chunk and the trailer with its variable-length
// metalayers (the user attributes, dim_names among them). It checks every
// structural and consistency rule before anything is handed out, so a
// [Frame] describes an array whose shape, chunk and block shapes, element
// type and chunk locations agree with one another and lie inside the data.
// A malformed frame is an error wrapping array.ErrCorrupt or
// array.ErrTruncated; content this reader does not handle (complex or
// structured dtypes, other frame versions, variable-length chunks) wraps
// array.ErrUnsupported and names what is unsupported.
//
// A sparse frame (a directory of chunks.b2frame and one file per chunk) is
// parsed with [ParseDir]; its chunk files are checked to exist and to hold
// one chunk each.
//
// Chunk decompression lives elsewhere: Parse takes a [DecodeFunc] for the
// few Blosc2 chunks the frame itself needs (the index chunk and the
// attribute values), so the codec package can be plugged in without this
// package depending on it. [Frame.Chunks] says where each data chunk's
// bytes are ([Frame.ReadChunk] returns them), or that the chunk is special
// (zeros, NaN, uninitialised) and has none; [Layout.Locate] maps a logical
// index to a chunk and an element inside the decoded chunk, whose blocks
// are laid out one after the other; [Frame.Info] gives the array.Info.
//
// Big-endian dtypes parse (Layout.BigEndian is set): whoever hands element
// bytes out must swap them to little-endian first, special-value bytes
// included.
package b2nd
