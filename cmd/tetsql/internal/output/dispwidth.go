package output

// TextWidth returns the number of terminal columns the UTF-8 text s
// occupies (wide East Asian characters count two, combining marks none),
// as the grids measure cells.
func TextWidth(s string) int { return displayWidth([]byte(s)) }
