//go:build !unix

package tetcore

import "os"

var pageSize = os.Getpagesize()

func dropPages([]byte) {}
