// Package b2nd reads Blosc2 frames holding N-dimensional arrays: files
// written by python-blosc2 and C-Blosc2 (the 'b2nd' metalayer) and by the
// older Caterva library (the 'caterva' metalayer).
//
// The frame itself (fixed header, metalayers, index chunk, trailer with
// the variable-length metalayers, sparse frame directories) is parsed and
// checked by the codec package, internal/codec/blosc, which also decodes
// the chunks. This package reads the N-d metalayer on top of it: [Parse]
// and [ParseDir] check that the array's shape, chunk and block shapes and
// element type agree with the frame's sizes before anything is handed
// out, so a [Frame] describes an array whose chunks are where the index
// says and decode to whole chunks. A malformed frame is an error wrapping
// array.ErrCorrupt or array.ErrTruncated; content this reader does not
// handle (complex or structured dtypes, other frame versions,
// variable-length chunks) wraps array.ErrUnsupported and names what is
// unsupported.
//
// [Layout.Locate] maps a logical index to a chunk and an element inside
// the decoded chunk, whose blocks are laid out one after the other;
// [Frame.Info] gives the array.Info (the attributes are the frame's
// vlmeta, dim_names among them); [Format] opens files as array sources.
//
// Big-endian dtypes parse (Layout.BigEndian is set): whoever hands element
// bytes out must swap them to little-endian first, special-value bytes
// included.
package b2nd
