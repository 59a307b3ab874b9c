package vtab

import "modernc.org/sqlite/vtab"

func fakeCtx() vtab.Context { return vtab.NewContext(func(string) error { return nil }) }
