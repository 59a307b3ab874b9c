package tetsql

import (
	"context"
	"path/filepath"
	"testing"
)

// BenchmarkIsValid is IsValid alone, on a connection with the demo file
// attached and left as it was (database/sql calls it each time it puts a
// connection back in the pool, and ResetSession when it takes it again).
func BenchmarkIsValid(b *testing.B) {
	cn, err := Driver{}.OpenConnector(filepath.Join("testdata", "demo.tet"))
	if err != nil {
		b.Fatal(err)
	}
	defer cn.(*Connector).Close()
	dc, err := cn.Connect(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	c := dc.(*Conn)
	defer c.Close()
	for b.Loop() {
		if !c.IsValid() {
			b.Fatal("a connection left as it was is not valid")
		}
	}
}
