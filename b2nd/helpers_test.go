package b2nd

import "github.com/tetsql/tetsql/internal/codec/blosc"

// testDecode is the chunk decoder the tests pass to Parse: the project's
// one Blosc2 decoder.
var testDecode DecodeFunc = blosc.Decode
