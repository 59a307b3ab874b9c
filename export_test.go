package tetsql

// OpenPaths lists the files the driver's registry holds open (see
// scan.Registry.OpenPaths).
func OpenPaths() []string { return defaultDriver.reg.OpenPaths() }

// TookScan reports whether a writer of e took its rows from a cells scan.
func (e *Export) TookScan() bool { return e.took }
