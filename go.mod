module github.com/tetsql/tetsql

go 1.26.8

require (
	github.com/edsrzf/mmap-go v1.2.0
	github.com/klauspost/compress v1.20.3
)

require golang.org/x/sys v0.49.0 // indirect
