package tetsql

import (
	"context"
	"path/filepath"
	"testing"
)

// BenchmarkResetSession_check is ResetSession's comparison alone, on a
// connection with the demo file attached and left as it was.
func BenchmarkResetSession_check(b *testing.B) {
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
	ctx := context.Background()
	for b.Loop() {
		if err := c.ResetSession(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkConnect is what a changed connection costs: a new one, set up.
func BenchmarkConnect(b *testing.B) {
	cn, err := Driver{}.OpenConnector(filepath.Join("testdata", "demo.tet"))
	if err != nil {
		b.Fatal(err)
	}
	defer cn.(*Connector).Close()
	for b.Loop() {
		dc, err := cn.Connect(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		dc.Close()
	}
}
