package tetsql

// OpenPaths lists the files the driver's registry holds open (see
// scan.Registry.OpenPaths).
func OpenPaths() []string { return defaultDriver.reg.OpenPaths() }
