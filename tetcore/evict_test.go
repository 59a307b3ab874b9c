package tetcore_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// TestEvict_dataStaysReadable drops the pages of every chunk of a mapped
// file and checks that the chunks still read back the same bytes.
func TestEvict_dataStaysReadable(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "e.tet")
	spec := tetcore.DatasetSpec{Name: "e", DType: tetcore.F64, Shape: []int64{64, 1024}, ChunkShape: []int64{8, 1024}}
	data := make([]byte, 64*1024*8)
	for i := range data {
		data[i] = byte(i*31 + i/4096)
	}
	writeFile(t, path, []genDataset{{spec, data}}, nil)
	f, err := tetcore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ds := f.Datasets[0]
	before := assemble(t, f, ds)
	for i := range ds.Chunks() {
		f.Evict(&ds.Chunks()[i])
	}
	if after := assemble(t, f, ds); !bytes.Equal(before, after) || !bytes.Equal(after, data) {
		t.Fatal("chunks differ after Evict")
	}
	raw, _ := os.ReadFile(path)
	p, err := tetcore.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	p.Evict(&p.Datasets[0].Chunks()[0]) // bytes, not a mapping: nothing to do
	if !bytes.Equal(assemble(t, p, p.Datasets[0]), data) {
		t.Fatal("parsed file changed")
	}
}
