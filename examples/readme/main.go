// Command readme is the database/sql example of the README.
package main

import (
	"database/sql"
	"fmt"
	"log"

	_ "github.com/tetsql/tetsql" // registers the "tetsql" driver
)

func main() {
	db, err := sql.Open("tetsql", "testdata/demo.tet")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	rows, err := db.Query(`SELECT time_label, value FROM temperature
		WHERE station_label = ? AND time_label BETWEEN ? AND ?`, "Oslo", "2024-01-01", "2024-01-03")
	if err != nil {
		log.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var day string
		var temp float64
		if err := rows.Scan(&day, &temp); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s %.1f\n", day, temp)
	}
	if err := rows.Err(); err != nil {
		log.Fatal(err)
	}
}
