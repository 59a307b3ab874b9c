package fold

// ForcePortable makes every read go through the portable little-endian
// decoder, as on a big-endian host, until restore is called. Tests using
// it must not run in parallel.
func ForcePortable() (restore func()) {
	old := nativeLE
	nativeLE = false
	return func() { nativeLE = old }
}
