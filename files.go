package tetsql

import (
	"fmt"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/vtab"
)

// UseFile calls fn with the file at path as the driver's connections
// read it: the source their tables share, opened (read-only) if no
// table holds it yet and released when fn returns. The shell verifies
// files this way, through the mapping its queries use.
func UseFile(path string, fn func(array.Source) error) error {
	h, err := defaultDriver.reg.Open(path)
	if err != nil {
		return err
	}
	defer h.Close()
	return fn(h.Source().Underlying())
}

// NewSession returns a session for tet tables on a modernc.org/sqlite
// connection of the program's own (sql.OpenDB(vtab.Connector{Name:
// ":memory:", Session: tetsql.NewSession()}), then vtab.SetupSQL): its
// tables open files through the driver's registry, sharing them with
// the driver's connections. It holds nothing once its connections are
// closed.
func NewSession() *vtab.Session { return vtab.NewSession(defaultDriver.reg) }

// SetupSQL returns the statements that attach the file at path as schema
// alias on a connection of the program's own (see NewSession and
// vtab.SetupSQL): the file is opened through the driver's registry to
// name its tables.
func SetupSQL(alias, path string) ([]string, error) {
	h, err := defaultDriver.reg.Open(path)
	if err != nil {
		return nil, fmt.Errorf("tetsql: open %s: %w", path, err)
	}
	defer h.Close() // the tables open their own handles
	return vtab.SetupSQL(alias, h.Path(), h.Source(), nil), nil
}
