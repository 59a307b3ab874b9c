package sqlitevt

import (
	"strconv"
	"sync"

	"modernc.org/libc"
	lib "modernc.org/sqlite/lib"
)

// FloatText returns the TEXT SQLite makes of the REAL f when it compares
// it with a TEXT value: its own printf with "%!.17g" (the default of
// SQLITE_DBCONFIG_FP_DIGITS), whose digits are SQLite's own and not
// always those of Go's formatting ("0.33333333333333332" for 1/3, "Inf"
// for +Inf). So it asks SQLite.
func FloatText(f float64) string {
	fpFormatOnce.Do(func() { fpFormat, _ = libc.CString("%!.17g") })
	if fpFormat == 0 {
		return strconv.FormatFloat(f, 'g', 17, 64)
	}
	tls := libc.NewTLS()
	defer tls.Close()
	args := tls.Alloc(8) // the variadic argument, in C memory
	defer tls.Free(8)
	z := lib.Xsqlite3_mprintf(tls, fpFormat, libc.VaList(args, f))
	if z == 0 {
		return strconv.FormatFloat(f, 'g', 17, 64)
	}
	defer lib.Xsqlite3_free(tls, z)
	return libc.GoString(z)
}

var (
	fpFormatOnce sync.Once
	fpFormat     uintptr // C string, allocated once, never freed
)
