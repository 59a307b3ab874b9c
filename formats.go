package tetsql

import (
	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/b2nd"
	"github.com/tetsql/tetsql/tetcore"
	"github.com/tetsql/tetsql/tgm"
)

// formats are the file formats the driver opens, one line per format. A
// file's format is the first whose Sniff recognises its first bytes,
// whatever the file's name.
var formats = []array.Format{
	tetcore.Format,
	b2nd.Format,
	tgm.Format,
}
