package scan

// NewCellScan is Init on a new CellScan, for the tests.
func NewCellScan(r Reader, sess *Session) *CellScan {
	c := new(CellScan)
	c.Init(r, sess)
	return c
}
