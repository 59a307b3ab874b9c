package tetsql

import (
	"context"
	"database/sql"
	"errors"

	"github.com/tetsql/tetsql/internal/scan"
)

// LiveCounts are the running totals of a connection's scans: chunks
// planned and read, rows (or folded elements) scanned, files planned and
// opened by many-file tables. They only grow; subtract the snapshot taken
// before a statement for that statement's share (LiveCounts.Sub).
type LiveCounts = scan.LiveCounts

// Activity reads the live counters of one connection while its
// statements run, from any goroutine. The scans update them once per
// chunk read, never per row.
type Activity struct {
	sess *scan.Session
}

// Snapshot returns the connection's counters now. It is safe to call
// from another goroutine while a statement runs on the connection.
func (a *Activity) Snapshot() LiveCounts {
	if a == nil {
		return LiveCounts{}
	}
	return a.sess.Live()
}

// Activity returns the connection's live counters.
func (c *Conn) Activity() *Activity { return &Activity{sess: c.session.Session} }

// Progress returns the live counters of conn, a connection of a tetsql
// database. Take it before running a statement: it goes through
// conn.Raw, which must not run while a statement is in progress; the
// handle's Snapshot then may.
func Progress(ctx context.Context, conn *sql.Conn) (*Activity, error) {
	var a *Activity
	err := conn.Raw(func(dc any) error {
		c, ok := dc.(*Conn)
		if !ok {
			return errors.New("tetsql: not a tetsql connection")
		}
		a = c.Activity()
		return nil
	})
	return a, err
}
