package vtab

import (
	"database/sql/driver"
	"sync"

	"modernc.org/sqlite"
)

var global struct {
	sync.Mutex
	last ScanStats
	any  bool
}

func recordGlobal(st ScanStats) {
	global.Lock()
	global.last, global.any = st, true
	global.Unlock()
}

// registerFunctions installs tet_last_scan(): the JSON counters of the
// most recently finished cells scan in this process (NULL before any).
// Per-connection counters are read from Go through Session.
func registerFunctions() error {
	return sqlite.RegisterScalarFunction("tet_last_scan", 0, func(*sqlite.FunctionContext, []driver.Value) (v driver.Value, err error) {
		defer recoverInto("tet_last_scan", &err)
		panicPoint("tet_last_scan")
		global.Lock()
		defer global.Unlock()
		if !global.any {
			return nil, nil
		}
		return global.last.JSON(), nil
	})
}
