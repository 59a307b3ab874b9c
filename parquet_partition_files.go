package tetsql

import (
	"bufio"
	"container/list"
	"fmt"
	"os"
	"path/filepath"

	"github.com/parquet-go/parquet-go/compress"
)

// partitioner keeps the open files of a partitioned export, at most
// maxOpen, finishing the least recently used one to open another.
type partitioner struct {
	root      string
	cols      []parquetColumn
	idx       []int // the columns the files hold
	codec     compress.Codec
	groupRows int64
	maxOpen   int
	open      map[string]*list.Element // partition path → element of lru
	lru       *list.List               // *partFile, most recently used first
	parts     map[string]int           // partition path → parts started
	files     int                      // files finished
}

// partFile is one open part file of a partition.
type partFile struct {
	key string
	f   *os.File
	bw  *bufio.Writer
	pf  *parquetFile
}

// file returns the open file of partition key, opening its next part.
func (p *partitioner) file(key string) (*parquetFile, error) {
	if e, ok := p.open[key]; ok {
		p.lru.MoveToFront(e)
		return e.Value.(*partFile).pf, nil
	}
	if p.lru.Len() >= p.maxOpen {
		if err := p.finish(p.lru.Back()); err != nil {
			return nil, err
		}
	}
	dir := filepath.Join(p.root, filepath.FromSlash(key))
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, fmt.Errorf("parquet: %w", err)
	}
	name := filepath.Join(dir, fmt.Sprintf("part-%d.parquet", p.parts[key]))
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return nil, fmt.Errorf("parquet: %w", err)
	}
	p.parts[key]++
	bw := bufio.NewWriterSize(f, 1<<16)
	pf := &partFile{key: key, f: f, bw: bw, pf: newParquetFile(bw, p.cols, p.idx, p.codec, p.groupRows)}
	p.open[key] = p.lru.PushFront(pf)
	return pf.pf, nil
}

// finish completes and closes the file of e.
func (p *partitioner) finish(e *list.Element) error {
	pf := e.Value.(*partFile)
	p.lru.Remove(e)
	delete(p.open, pf.key)
	err := pf.pf.close()
	if err == nil {
		err = pf.bw.Flush()
	}
	if cerr := pf.f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("parquet: %w", cerr)
	}
	if err != nil {
		return err
	}
	p.files++
	return nil
}

// closeAll finishes every open file.
func (p *partitioner) closeAll() error {
	for p.lru.Len() > 0 {
		if err := p.finish(p.lru.Back()); err != nil {
			return err
		}
	}
	return nil
}

// abort closes every open file without finishing it.
func (p *partitioner) abort() {
	for e := p.lru.Front(); e != nil; e = e.Next() {
		e.Value.(*partFile).f.Close()
	}
	p.lru.Init()
	clear(p.open)
}
