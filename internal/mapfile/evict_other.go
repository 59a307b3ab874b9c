//go:build !unix

package mapfile

import "os"

var pageSize = os.Getpagesize()

func dropPages([]byte) {}
