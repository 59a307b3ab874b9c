package vtab

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Coarsening: a by item "dim/k" groups dim by index/k (integer
// division), so t_agg('time/5') gives one row per block of 5 time steps,
// whose time column holds the block number index/k; its label column is
// NULL (a block has many labels). The blocks are fixed by the global
// index, whatever the WHERE clause selects: with time >= 3, block 0 holds
// times 3 and 4 only, and the last block of an axis whose size k does not
// divide holds the remainder.

// maxBlock bounds k: a larger k (even beyond int64) is taken as maxBlock,
// which gives the same single block (every axis is shorter), and the
// bound keeps block arithmetic far from overflow.
const maxBlock = 1 << 62

// parseByItem splits one by item into the dim name and its block size k
// (1 when the item does not coarsen).
func parseByItem(item string) (name string, k int64, err error) {
	i := strings.LastIndexByte(item, '/') // the dim's name may hold a "/"
	if i < 0 {
		return strings.TrimSpace(item), 1, nil
	}
	name, ks := strings.TrimSpace(item[:i]), item[i+1:]
	if name == "" {
		return "", 0, fmt.Errorf("%q: no dim before /", strings.TrimSpace(item))
	}
	ks = strings.TrimSpace(ks)
	k, perr := strconv.ParseInt(ks, 10, 64)
	if errors.Is(perr, strconv.ErrRange) && ks != "" && ks[0] != '-' && ks[0] != '+' {
		k, perr = maxBlock, nil // beyond int64: one block, as any k longer than the axis
	}
	k = min(k, maxBlock) // the same single block, with room for the block arithmetic
	if perr != nil || k <= 0 || ks[0] == '+' {
		return "", 0, fmt.Errorf("%q: the block size after / must be a positive integer, got %q", strings.TrimSpace(item), ks)
	}
	return name, k, nil
}

// blockOf is the block size of axis a under coarse (1 when none).
func blockOf(coarse []int64, a int) int64 {
	if a < len(coarse) && coarse[a] > 1 {
		return coarse[a]
	}
	return 1
}

// groupExtent is the number of groups axis a can have at most: its size,
// or its number of blocks when coarsened.
func groupExtent(size int64, coarse []int64, a int) int64 {
	k := blockOf(coarse, a)
	return size/k + min(size%k, 1)
}

// isDim reports whether item, trimmed, names a dim (ignoring case).
func (t *aggTable) isDim(item string) bool {
	item = strings.TrimSpace(item)
	for _, d := range t.dims {
		if strings.EqualFold(d, item) {
			return true
		}
	}
	return false
}
