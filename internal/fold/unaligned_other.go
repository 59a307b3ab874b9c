//go:build !amd64 && !arm64

package fold

// unalignedOK is false: misaligned payloads are copied to aligned buffers.
var unalignedOK = false
