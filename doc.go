// Package tetsql provides a database/sql driver, registered as "tetsql",
// that queries .tet tensor files with SQL through SQLite virtual tables.
//
//	db, err := sql.Open("tetsql", "testdata/demo.tet")
//	rows, err := db.QueryContext(ctx, `SELECT time_label, value FROM temperature
//	                                   WHERE station_label = 'Oslo'`)
//
// Every file is attached as its own schema (named after the file, or by
// an alias) holding the metadata tables tet_file, tet_datasets, tet_dims,
// tet_chunks, tet_history, tet_attrs and tet_coords, and one cells table
// per dataset; see docs/SQL.md for the SQL surface, docs/GO.md for a
// guide and docs/ARCHITECTURE.md for the layout of the code. Every pooled connection gets the same schemas;
// a file is mapped once per process and shared by all connections and
// databases.
//
// # DSN
//
// A DSN names one or more files, separated by ';', each optionally
// prefixed by "alias=", followed by optional URL-style query parameters:
//
//	demo.tet
//	era5=/data/era5.tet;st=/data/stations.tet
//	/data/grid.tet?max_chunk_bytes=256MiB&read_ahead=4
//	era5/**/*.tet?on_error=skip
//
// A path holding a glob metacharacter (* [ \, see [FileSpec.IsGlob];
// `**` spans directories; ? starts the options in a DSN, a Config takes
// it) attaches every file it matches as ONE schema,
// named by its alias or after the glob's fixed directory ([GlobAlias]:
// "era5/**/*.tet" is era5): one table per dataset name over every file
// holding it, with a TEXT column file and one TEXT column per hive
// key=value directory (see docs/SQL.md, "Many files as one table"). The
// files are listed, and their dataset names read, once per connector;
// the tables open the files lazily. A glob matching no file is an error
// naming it.
//
// Options (unknown, repeated or malformed options are an error at Open):
//
//	max_chunk_bytes     largest decoded chunk a query may allocate (default
//	                    256MiB); sizes accept B, KiB, MiB, GiB, TiB, KB, MB,
//	                    GB, TB suffixes
//	read_ahead          chunks a scan decodes ahead of the one it reads, on
//	                    other goroutines (0-64, 0 = off); a scan holds at
//	                    most read_ahead+1 decoded chunks; default automatic:
//	                    scans over several compressed chunks read
//	                    2×decode_parallelism chunks ahead
//	decode_parallelism  goroutines per scan decoding ahead (1-read_ahead,
//	                    default min(read_ahead, GOMAXPROCS), automatic
//	                    read-ahead min(GOMAXPROCS, 4))
//	cache_budget        bytes of decoded zstd chunks kept per file for later
//	                    queries, least recently used out (default 0 = none)
//	mem_limit           most memory one query may ask of tetsql's own buffers
//	                    (aggregate groups, metadata rows; default 1GiB,
//	                    256MiB in safe mode)
//	time_labels         true: label columns of ISO 8601 dates or timestamps
//	                    are delivered as time.Time (default false)
//	safe                1: safe mode for untrusted SQL: only reading
//	                    statements; ATTACH, VACUUM, CREATE, DROP, INSERT,
//	                    writing PRAGMAs, load_extension fail with "not
//	                    allowed in safe mode: ATTACH" (ErrNotAllowed)
//	statement_timeout   stop a statement after this long, e.g. 30s (default
//	                    none; 30s in safe mode; 0 = none)
//	max_rows            fail a result with more rows than this (default any;
//	                    1000000 in safe mode; 0 = any)
//	on_error            skip: a file a glob matched that cannot be read is
//	                    left out with a warning line on stderr
//	                    (Config.Warn) and counted in the scan statistics
//	                    (skipped_files=N); fail (default): it is an error
//	                    naming the file
//
// A time.Time argument binds as ISO 8601 text, see [FormatTime].
//
// [NewConnector] takes the same settings as a [Config] struct, and also
// accepts paths containing ';' or '?'.
//
// # Errors, cancellation and closing
//
// Files are opened on first use; a file that cannot be opened fails that
// connection attempt with an error naming it (later attempts retry). A
// canceled context or passed deadline stops a running scan promptly, also
// while iterating rows, with an error for which errors.Is(err,
// context.Canceled) or errors.Is(err, context.DeadlineExceeded) holds.
// Closing the *sql.DB lets running queries finish; a file stays mapped
// until the last cursor reading it closes.
//
// # Scan statistics
//
// [Scans] returns the counters (chunks decoded of the total, rows, bytes)
// of the cells scans a connection ran; SQL can read the latest with
// SELECT tet_last_scan().
package tetsql
