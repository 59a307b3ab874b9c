package tgm

import (
	"fmt"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/mapfile"
)

// Format opens Tensogram files as array sources, recognised by the
// message magic whatever the file's name. Data objects become datasets
// (see [Source]); the messages and objects themselves are the metadata
// tables tgm_messages and tgm_objects (see [Source.Tables]).
var Format = format{}

type format struct{}

// Name is the format's short name.
func (format) Name() string { return "tgm" }

// Sniff reports whether head starts a Tensogram message.
func (format) Sniff(head []byte) bool { return Sniff(head) }

// Open opens the file at path; see [Open].
func (format) Open(path string, o array.Options) (array.Source, error) {
	return Open(path, o)
}

// Source is an opened Tensogram file: the mapped bytes, their scan, and
// the datasets built from it. Its methods are safe for concurrent use.
//
// Datasets group the data objects by name (see [Object.Name]). A name
// that occurs exactly once in every message, with the same dtype, the
// same exposed element type and the same shape each time, is one dataset
// of shape [messages]+shape whose leading axis is named "message"; each
// object is one chunk, so chunk id k is message k's object. Any other
// name gives one dataset per object, named "<name>_m<message>" (with
// "_o<object>" added when the name occurs more than once in that
// message), of the object's own shape, one chunk. Objects whose dtype has
// no element type (complex64, complex128, bitmask, unknown dtypes) or
// whose rank is above array.MaxRank belong to no dataset: the file
// attribute "unmapped" lists them, tgm_objects shows them with a NULL
// dataset and Verify warns of them. A rank-MaxRank name does not stack.
type Source struct {
	// Backing gives Close, Acquire, Release, CheckUnchanged and
	// EvictRange over the mapping.
	mapfile.Backing
	path     string
	mf       *mapfile.File
	file     *File
	arrays   []array.Array
	attrs    map[string]string
	limit    int64                 // Options.MaxChunkBytes; 0 for DefaultMaxObjectBytes
	place    map[*Object]placement // where each object of a dataset is
	left     map[*Object]error     // why each object of no dataset is in none
	messages [][]any               // rows of tgm_messages
	objects  [][]any               // rows of tgm_objects
}

// Open maps the file at path and scans it: every message and frame is
// checked (see [Scan]) before the source is handed out, so a truncated
// or malformed file fails here. Data objects are decoded only when read,
// each one hash-verified first.
func Open(path string, o array.Options) (*Source, error) {
	mf, err := mapfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("tgm: %w", err)
	}
	return newSource(mf, path, o)
}

// newSource builds the source of the file mf (closed on failure).
func newSource(mf *mapfile.File, path string, o array.Options) (*Source, error) {
	s := &Source{Backing: mapfile.BackedBy(mf), path: path, mf: mf, limit: o.MaxChunkBytes}
	if err := s.parse(); err != nil {
		mf.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// parse scans the mapping under Guard (the file may shrink meanwhile),
// builds the datasets and renders the metadata tables' rows, which read
// metadata values that may alias the mapping.
func (s *Source) parse() error {
	var err error
	gerr := s.mf.Guard(func() {
		if s.file, err = Scan(s.mf.Data()); err != nil {
			return
		}
		if g := s.file.Garbage; g >= 0 {
			// Messages are numbered by position: one hidden by a damaged
			// magic would renumber every later one without an error.
			err = fmt.Errorf("tgm: byte %d is in no message (%d bytes outside messages): a damaged message? %w", g, s.file.Skipped, array.ErrCorrupt)
			return
		}
		if err = s.build(); err != nil {
			return
		}
		s.messages, s.objects = s.rows()
	})
	if gerr != nil {
		return gerr
	}
	return err
}

// Arrays lists the datasets in the order their names first occur in the
// file.
func (s *Source) Arrays() []array.Array { return s.arrays }

// Attrs holds "messages" (the message count) and, when some objects
// belong to no dataset, "unmapped": a JSON array naming each with the
// reason.
func (s *Source) Attrs() map[string]string { return s.attrs }

// File is the scanned structure of the file. Its metadata values may
// alias the mapping: read them only while the source is open.
func (s *Source) File() *File { return s.file }

// Describe says what the source is (see array.Describer): format "tgm",
// the file size, wire version 3, and footer "ok" (every message's
// postamble was checked at Open).
func (s *Source) Describe() array.Description {
	return array.Description{Format: "tgm", Size: s.file.Size, LayoutVersion: wireVersion, Footer: "ok"}
}

// Verify checks the file (see array.Verifier): every hash of every frame
// of every message (data objects against their inline hash or a hash
// frame's entry), one error finding per mismatch. A deep check also
// decodes every data object of a dataset (none larger than
// maxChunkBytes, when given; DefaultMaxObjectBytes otherwise): an object
// that cannot be decoded is an error finding naming why. Objects of no
// dataset (the "unmapped" attribute) have their hashes checked only,
// and are a warning saying why they are not read. A file
// with no digest at all is a warning, so that a clean report is not read
// as checked hashes.
func (s *Source) Verify(deep bool, maxChunkBytes int64) ([]array.Finding, error) {
	if err := s.CheckUnchanged(); err != nil {
		return nil, err
	}
	if s.mf.Released() {
		return nil, fmt.Errorf("tgm: %s: %w", s.path, array.ErrClosed)
	}
	var out []array.Finding
	gerr := s.mf.Guard(func() { out = s.verify(deep, maxChunkBytes) })
	if gerr != nil {
		return nil, gerr
	}
	return out, nil
}

func (s *Source) verify(deep bool, maxChunkBytes int64) []array.Finding {
	var out []array.Finding
	if s.file.HashedFrames() == 0 {
		out = append(out, array.Finding{Severity: "warning", Message: "no frame of the file carries a hash: nothing to verify the bytes against"})
	}
	var buf []byte
	for i := range s.file.Messages {
		m := &s.file.Messages[i]
		for _, fr := range m.Frames {
			if fr.Type == FrameDataObject {
				continue
			}
			if err := fr.checkHash(m.data); err != nil {
				out = append(out, array.Finding{Severity: "error", Message: fmt.Sprintf("tgm: message %d: %v", m.Index, err)})
			}
		}
		for j := range m.Objects {
			o := &m.Objects[j]
			var ds string
			var chunk []int64
			p, inDataset := s.place[o]
			if inDataset {
				ds, chunk = p.ds.info.Name, p.coords()
			}
			err := o.VerifyHash()
			if why := s.left[o]; err == nil && why != nil {
				out = append(out, array.Finding{Severity: "warning", Message: fmt.Sprintf("tgm: %s: in no dataset: %v", o.where(), why)})
			}
			if err == nil && deep && inDataset {
				buf, err = o.Decode(buf, maxChunkBytes) // refuses objects above the limit
			}
			if err != nil {
				out = append(out, array.Finding{Severity: "error", Array: ds, Chunk: chunk, Message: err.Error()})
			}
		}
	}
	return out
}
