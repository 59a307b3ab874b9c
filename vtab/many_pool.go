package vtab

import (
	"container/list"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// manyKeepFiles is how many files a many-file table keeps open between
// scans, least recently used out: a query repeated over a glob (or the
// inner side of a join, run once per outer row) finds its files open and
// their decoded chunks cached, while memory stays bounded whatever the
// number of files touched. Each kept file gets the decoded-chunk cache
// Session.ManyCacheBudget / manyKeepFiles.
const manyKeepFiles = 16

// innerPool is the inner tables a many-file table keeps. A table taken
// from it belongs to one cursor (or fold worker) until put back.
type innerPool struct {
	mu     sync.Mutex
	lru    *list.List // of *innerTable, most recent at the front
	m      map[int]*list.Element
	absent map[int]fileStamp // files without the dataset
}

// fileStamp is what tells a file changed without opening it.
type fileStamp struct {
	size  int64
	mtime time.Time
}

// lacks reports whether file fi was found without the dataset and is
// unchanged since.
func (p *innerPool) lacks(fi int, st os.FileInfo) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.absent[fi]
	return ok && s.size == st.Size() && s.mtime.Equal(st.ModTime())
}

// lack remembers that file fi does not hold the dataset.
func (p *innerPool) lack(fi int, st os.FileInfo) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.absent == nil {
		p.absent = map[int]fileStamp{}
	}
	p.absent[fi] = fileStamp{st.Size(), st.ModTime()}
}

// take returns the kept inner table of file fi (nil for none), removing
// it from the pool. A table whose file changed on disk is closed, not
// returned: the caller opens the file afresh.
func (p *innerPool) take(fi int) *innerTable {
	p.mu.Lock()
	e := p.m[fi]
	if e != nil {
		delete(p.m, fi)
		p.lru.Remove(e)
	}
	p.mu.Unlock()
	if e == nil {
		return nil
	}
	it := e.Value.(*innerTable)
	if it.h.Source().CheckUnchanged() != nil {
		it.close()
		return nil
	}
	return it
}

// put keeps it as file fi's inner table, closing what falls out.
func (p *innerPool) put(fi int, it *innerTable) {
	var out []*innerTable
	p.mu.Lock()
	if p.lru == nil {
		p.lru, p.m = list.New(), map[int]*list.Element{}
	}
	if e := p.m[fi]; e != nil { // another cursor put one back first
		out = append(out, e.Value.(*innerTable))
		p.lru.Remove(e)
	}
	it.fi = fi
	p.m[fi] = p.lru.PushFront(it)
	for p.lru.Len() > manyKeepFiles {
		e := p.lru.Back()
		p.lru.Remove(e)
		old := e.Value.(*innerTable)
		delete(p.m, old.fi)
		out = append(out, old)
	}
	p.mu.Unlock()
	for _, o := range out {
		o.close()
	}
}

// closeAll closes every kept table.
func (p *innerPool) closeAll() {
	p.mu.Lock()
	var out []*innerTable
	if p.lru != nil {
		for e := p.lru.Front(); e != nil; e = e.Next() {
			out = append(out, e.Value.(*innerTable))
		}
		p.lru.Init()
		clear(p.m)
	}
	p.mu.Unlock()
	for _, o := range out {
		o.close()
	}
}

// inner returns file fi's inner table: kept, or opened. A file found
// without the dataset is remembered by size and modification time, and
// passed over without opening while those stay the same.
func (t *manyTable) inner(fi int) (*innerTable, error) {
	if it := t.pool.take(fi); it != nil {
		return it, nil
	}
	path := t.list.files[fi].path
	st, statErr := os.Stat(path)
	if statErr == nil && t.pool.lacks(fi, st) {
		return nil, fmt.Errorf("%w (as when last opened)", errNoDataset)
	}
	it, err := t.openInner(path)
	if errors.Is(err, errNoDataset) && statErr == nil {
		t.pool.lack(fi, st)
	}
	if err != nil {
		return nil, err
	}
	if err := t.fits(it); err != nil {
		it.close()
		return nil, err
	}
	if b := t.args.session.ManyCacheBudget; b > 0 {
		it.h.Source().SetCacheBudget(b / manyKeepFiles)
	}
	return it, nil
}
