package vtab

import "modernc.org/sqlite/vtab"

func fakeCtx() vtab.Context { return vtab.NewContext(func(string) error { return nil }) }

// LiveObjects and ConnCount expose the direct binding's accounting.
var LiveObjects, ConnCount = liveObjects, connCount
