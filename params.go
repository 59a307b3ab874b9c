package tetsql

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/tetsql/tetsql/internal/sqlitevt"
)

// Parameters returns the parameters of the first statement of query by
// index, as SQLite numbers and names them: element i-1 is parameter i,
// written ":x", "@x", "$x" or "?N", or "" for an anonymous "?" (which
// SQLite numbers one past the highest index before it). It prepares the
// statement on conn, a connection of a tetsql database, without running
// it. A shell uses it to bind the values of its parameter table by name,
// as sqlite3's .parameter does.
func Parameters(ctx context.Context, conn *sql.Conn, query string) ([]string, error) {
	var names []string
	err := conn.Raw(func(dc any) error {
		c, ok := dc.(*Conn)
		if !ok {
			return errors.New("not a tetsql connection")
		}
		if err := c.precheck(query); err != nil {
			return err
		}
		h, err := sqlitevt.HandleOf(c.inner)
		if err != nil {
			return err
		}
		names, err = h.Parameters(query)
		if c.guard != nil {
			c.guard.take() // a refusal seen here is the statement's, reported when it runs
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("tetsql: parameters: %w", err)
	}
	return names, nil
}
