//go:build amd64 || arm64

package fold

// unalignedOK: loads of misaligned numbers are as fast as aligned ones.
var unalignedOK = true
