package sqlitevt_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"

	"github.com/tetsql/tetsql/internal/sqlitevt"
)

// Register a module on one connection of modernc.org/sqlite and query it.
func ExampleHandle_CreateModule() {
	db, _ := sql.Open("sqlite", ":memory:")
	defer db.Close()
	conn, _ := db.Conn(context.Background())
	defer conn.Close()
	err := conn.Raw(func(dc any) error {
		h, err := sqlitevt.HandleOf(dc.(driver.Conn))
		if err != nil {
			return err
		}
		return h.CreateModule("series", module{k: &knobs{omit: true}})
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	conn.ExecContext(ctx, "CREATE VIRTUAL TABLE s USING series(1, 10)")
	var n, sum int64
	conn.QueryRowContext(ctx, "SELECT count(*), sum(value) FROM s WHERE value > 7").Scan(&n, &sum)
	fmt.Println(n, sum)
	// Output: 3 27
}
