// Package tetsql provides a database/sql driver, registered as "tetsql",
// that queries .tet tensor files with SQL through SQLite virtual tables.
//
//	db, err := sql.Open("tetsql", "testdata/demo.tet")
//	rows, err := db.Query(`SELECT time_label, value FROM temperature
//	                       WHERE station_label = 'Oslo'`)
//
// Every file is attached as its own schema (named after the file, or by
// an alias) holding the metadata tables tet_file, tet_datasets, tet_dims,
// tet_chunks, tet_history, tet_attrs and tet_coords, and one cells table
// per dataset; see shared/spec/sql-surface.md for the contract. Every
// pooled connection gets the same schemas; a file is mapped once per
// process and shared by all connections.
//
// # DSN
//
// A DSN names one or more files, separated by ';', each optionally
// prefixed by "alias=", followed by optional URL-style query parameters:
//
//	demo.tet
//	era5=/data/era5.tet;st=/data/stations.tet
//	/data/grid.tet?max_chunk_bytes=256MiB
//
// Options (unknown or malformed options are an error at Open time):
//
//	max_chunk_bytes   largest decoded chunk a query may allocate (default 1GiB);
//	                  sizes accept B, KiB, MiB, GiB, KB, MB, GB suffixes
//
// [NewConnector] takes the same settings as a [Config] struct.
package tetsql
