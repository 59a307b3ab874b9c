package tetsql_test

import (
	"context"
	"database/sql"
	"fmt"
	"log"
)

// Filter by value: the scan evaluates the condition itself, and keeps
// each chunk's min and max as it reads it, so that a later scan skips
// the chunks that cannot match without reading them. The aggregate
// table's hidden value column selects the elements it reduces.
func Example_valuePredicates() {
	db, err := sql.Open("tetsql", "testdata/demo.tet")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(context.Background()) // tet_last_scan is per connection
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()

	for i := 0; i < 2; i++ {
		var n, decoded, skipped int
		err := conn.QueryRowContext(context.Background(), "SELECT count(*) FROM temperature WHERE value > 30").Scan(&n)
		if err == nil {
			err = conn.QueryRowContext(context.Background(), "SELECT tet_last_scan() ->> '$.chunks_decoded', tet_last_scan() ->> '$.chunks_skipped'").Scan(&decoded, &skipped)
		}
		if err != nil {
			log.Fatal(err)
		}
		if i == 1 { // the first scan read every chunk (unless an earlier one had)
			fmt.Printf("%d hot readings; chunks read %d, skipped %d\n", n, decoded, skipped)
		}
	}
	var station string
	var hot int
	err = conn.QueryRowContext(context.Background(),
		"SELECT station_label, count FROM temperature_agg('station') WHERE value > 30 ORDER BY count DESC LIMIT 1").Scan(&station, &hot)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("hottest station:", station, hot)
	// Output:
	// 519 hot readings; chunks read 9, skipped 15
	// hottest station: Dubai 155
}
