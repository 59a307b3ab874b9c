package tetsql_test

import (
	"database/sql"
	"fmt"
	"log"
)

// f32 values reach Go as float64, the type of every SQLite REAL: the
// float32 -8.3 widened is -8.300000190734863. A value column declared
// FLOAT32 (FLOAT16 for f16) holds only such widened float32s, so
// scanning it into a float32 gives back exactly the stored value.
func Example_float32() {
	db, err := sql.Open("tetsql", "testdata/demo.tet")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT value, value FROM temperature
		WHERE station_label = 'Longyearbyen' AND time_label = '2024-01-16'`)
	if err != nil {
		log.Fatal(err)
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("declared:", cts[0].DatabaseTypeName())
	for rows.Next() {
		var f float32
		var d float64
		if err := rows.Scan(&f, &d); err != nil {
			log.Fatal(err)
		}
		fmt.Println("as float32:", f)
		fmt.Println("as float64:", d)
	}
	if err := rows.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// declared: FLOAT32
	// as float32: -8.3
	// as float64: -8.300000190734863
}
