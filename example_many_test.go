package tetsql_test

import (
	"database/sql"
	"fmt"
	"log"
)

// Open monthly files in hive directories (year=2024/month=01/era5.tet,
// …) as one schema with a glob: per dataset one table over every file,
// with a column per key=value directory, so a query groups, filters and
// orders across the files; each file keeps its own day labels.
func Example_glob() {
	db, err := sql.Open("tetsql", "testdata/many/**/*.tet")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	rows, err := db.Query(`SELECT year, month, count(*), round(avg(value), 4)
		FROM t2m GROUP BY year, month ORDER BY year, month`)
	if err != nil {
		log.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var year, month string
		var n int
		var avg float64
		if err := rows.Scan(&year, &month, &n, &avg); err != nil {
			log.Fatal(err)
		}
		fmt.Println(year, month, n, avg)
	}
	if err := rows.Err(); err != nil {
		log.Fatal(err)
	}

	var day string
	var value float64
	err = db.QueryRow(`SELECT day_label, round(value, 4) FROM many.t2m
		WHERE station_label = 'Lima' ORDER BY value DESC LIMIT 1`).Scan(&day, &value)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("warmest in Lima:", day, value)
	// Output:
	// 2024 01 6 -0.4482
	// 2024 02 6 -0.002
	// 2024 03 6 -0.4715
	// warmest in Lima: 2024-02-03 0.6973
}
