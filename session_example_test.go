package tetsql_test

import (
	"database/sql"
	"fmt"
	"log"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/vtab"
)

// Put tet tables on a modernc.org/sqlite connection of your own: a
// session over the driver's registry, and the statements that attach a
// file to it.
func ExampleNewSession() {
	sess := tetsql.NewSession()
	db := sql.OpenDB(vtab.Connector{Name: ":memory:", Session: sess})
	db.SetMaxOpenConns(1)
	defer db.Close()
	stmts, err := tetsql.SetupSQL("s", "testdata/reference/sample.tet")
	if err != nil {
		log.Fatal(err)
	}
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			log.Fatal(err)
		}
	}
	var sum float64
	if err := db.QueryRow("SELECT sum(value) FROM s.temperature").Scan(&sum); err != nil {
		log.Fatal(err)
	}
	fmt.Println(sum)
	// Output: 21
}
