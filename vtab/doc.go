// Package vtab provides tetsql's SQLite virtual tables over .tet files:
// the metadata tables (tet_file, tet_datasets, tet_dims, tet_chunks,
// tet_history, tet_attrs, tet_coords), the metadata tables a format has
// of its own (array.TableProvider), and one cells table and one
// aggregate table per dataset, as docs/SQL.md describes.
//
// Everything goes through one module, "tet", which exists only on the
// connections [Open] or [Connector] opens (never on a program's other
// modernc.org/sqlite connections). A table is declared with
//
//	CREATE VIRTUAL TABLE s.name USING tet(path, kind [, dataset])
//
// where kind is one of the metadata table names, "cells" or "agg" (with
// a dataset), or "format_table" (with the name of a format's table, in
// place of the dataset). [SetupSQL]
// returns the statements that attach one file as a schema with all its
// tables; the database/sql driver runs them on every new connection.
//
// The tables implement the interfaces of internal/sqlitevt, the one
// binding to SQLite's C API, which holds every unsafe line about SQLite;
// this package has none.
//
// The package is the SQL translation only: IndexInfo to plans, argument
// values to constraints, chunks and folds to rows and columns. Reading
// is the engine's (internal/scan): the tables of a connection open their
// files through the registry of its [Session] (one per driver, shared by
// every table on every connection; nothing ever writes to the files) and
// read every chunk through its one read path. vtab imports no file
// format: the driver gives the registry its format list.
package vtab
