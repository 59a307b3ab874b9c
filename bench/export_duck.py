#!/usr/bin/env python3
"""bench/export_duck.py: the DuckDB side, the answer checks and the report
of bench/export.sh (see bench/README.md, "Parquet export against DuckDB's COPY").

Subcommands:
  load PARQUET DB            table grid in a new DuckDB file DB, from the Parquet
                             tetsql wrote (the same values; untimed)
  warm PARQUET OUT N ROUND   one process: load PARQUET into an in-memory table
                             (untimed), COPY once unmeasured, then N timed COPYs
                             with DuckDB's default threads and N with threads=1;
                             prints sample lines
  fresh DB OUT               open DB read-only, COPY grid TO OUT, exit (timed
                             from outside by export.sh)
  check NAME=FILE ...        count and sums of every file, and each file's rows
                             compared in order with the first file's; TSV lines
  report SAMPLES CHECKS MACHINE TETSQL_TOTALS   results.md on stdout

Python is used only here, for the benchmark; nothing in the build or in
`go test` needs it.
"""
import os
import resource
import statistics
import sys
import time

COPY = "COPY grid TO '{}' (FORMAT parquet, COMPRESSION zstd)"


def cmd_load(parquet, db):
    import duckdb
    if os.path.exists(db):
        os.remove(db)
    con = duckdb.connect(db)
    con.execute(f"CREATE TABLE grid AS SELECT * FROM read_parquet('{parquet}')")
    con.execute("CHECKPOINT")
    n = con.execute("SELECT count(*) FROM grid").fetchone()[0]
    con.close()
    print(f"loaded {n} rows into {db} ({os.path.getsize(db)} bytes)", file=sys.stderr)


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def cmd_warm(parquet, out, n, rnd):
    import duckdb
    con = duckdb.connect()
    con.execute(f"CREATE TABLE grid AS SELECT * FROM read_parquet('{parquet}')")
    rss_loaded = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    threads = con.execute("SELECT current_setting('threads')").fetchone()[0]
    for setting in (None, 1):
        if setting is not None:
            con.execute(f"SET threads = {setting}")
        t = threads if setting is None else setting
        con.execute(COPY.format(out))  # unmeasured
        for _ in range(int(n)):
            w0, c0 = time.perf_counter(), cpu()
            con.execute(COPY.format(out))
            w1, c1 = time.perf_counter(), cpu()
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            print(f"duck-warm-t{t}\t{rnd}\t{w1 - w0:.6f}\t{peak}\t{c1 - c0:.6f}\t{os.path.getsize(out)}")
    print(f"# duckdb warm: threads={threads}, peak RSS after load {rss_loaded} KiB", file=sys.stderr)


def cmd_fresh(db, out):
    import duckdb
    con = duckdb.connect(db, read_only=True)
    con.execute(COPY.format(out))
    con.close()


def read_table(path):
    import pyarrow as pa
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq
    if path.endswith(".csv"):
        # tetsql writes an f32 value in the shortest text that reads back
        # as the same float32 (0.016601562 for 0.0166015625), so read it as
        # float32: as float64 it would be a different number.
        types = {"y": pa.int64(), "x": pa.int64(), "value": pa.float32()}
        return pacsv.read_csv(path, convert_options=pacsv.ConvertOptions(column_types=types))
    return pq.read_table(path)


def cmd_check(pairs):
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq
    ref = None
    for pair in pairs:
        name, path = pair.split("=", 1)
        t = read_table(path)
        # float64 sums of multiples of 1/1024 this size are exact in any order.
        v = t["value"].cast(pa.float64())
        sums = [t.num_rows, pc.sum(v).as_py(), pc.sum(pc.abs(v)).as_py(),
                pc.sum(t["y"]).as_py(), pc.sum(t["x"]).as_py()]
        types = ",".join(f"{f.name}:{f.type}" for f in t.schema)
        groups = pq.ParquetFile(path).metadata.num_row_groups if path.endswith(".parquet") else "-"
        cols = {c: t[c].combine_chunks() for c in ("y", "x")}
        cols["value"] = v.combine_chunks()
        if ref is None:
            ref, same = cols, "reference"
        else:
            same = "yes" if all(ref[c].equals(cols[c]) for c in ref) else "DIFFER"
        print("\t".join(str(s) for s in [name, os.path.getsize(path), *sums, types, groups, same]))
        del t, v, cols


def fmt_ms(s):
    return f"{s * 1000:,.0f}"


def cmd_report(samples, checks, machine, totals):
    rows = {}  # (size, tool) -> list of (wall, rss_kb, cpu, bytes)
    for line in open(samples):
        if not line.strip() or line.startswith("#"):
            continue
        size, tool, _rnd, wall, rss, cpu_s, nbytes = line.rstrip("\n").split("\t")
        rows.setdefault((size, tool), []).append((float(wall), int(rss), float(cpu_s), int(nbytes)))
    nrows = {}
    for line in open(totals):
        size, n, *_ = line.rstrip("\n").split("\t")
        nrows[size] = int(n)
    med = {k: (statistics.median(w for w, *_ in v), max(r for _, r, _, _ in v),
               statistics.median(c for _, _, c, _ in v), v[-1][3], len(v)) for k, v in rows.items()}
    labels = [
        ("tet-fast", "tetsql `-o fast.parquet`, plain projection (fast path)", "fresh process"),
        ("tet-nocache", "tetsql `--cache-budget 0 -o nocache.parquet`, plain projection (fast path, no decoded-chunk cache)", "fresh process"),
        ("tet-ordinary", "tetsql `-o ord.parquet`, `WHERE value = value OR value IS NULL` (database/sql path)", "fresh process"),
        ("tet-csv", "tetsql `-o out.csv` (reference)", "fresh process"),
        ("tet-warm", "tetsql in a warm process (`exportpath -n`): NewExport + WriteParquet of the plain projection into a file, "
                     "file opened once (decoded chunks cached)", "in-process"),
        ("duck-fresh", "DuckDB: python process opens grid.duckdb, `COPY grid TO … (FORMAT parquet, COMPRESSION zstd)`", "fresh process"),
        ("duck-warm-t2", "DuckDB `COPY` in a warm process, in-memory table, threads = 2 (default)", "in-process"),
        ("duck-warm-t1", "DuckDB `COPY` in a warm process, in-memory table, threads = 1", "in-process"),
        ("py-baseline", "python3 + `import duckdb` + connect, nothing else (start-up floor of duck-fresh)", "fresh process"),
    ]
    out = []
    out.append("# Parquet export: tetsql against DuckDB's COPY on the same values\n")
    out.append("Written by `bench/export.sh` (bench/README.md, \"Parquet export against DuckDB's COPY\").\n")
    out.append("```")
    out.append(open(machine).read().rstrip())
    out.append("```\n")
    for size in sorted(nrows, key=lambda s: -nrows[s]):
        n = nrows[size]
        out.append(f"## {size}: {n:,} rows\n")
        out.append("Medians; `n` samples; RSS is the largest of the samples (for the warm DuckDB process: the whole "
                   "process, in-memory table included); CPU = user + system. rows/s and MB/s from the median wall time; "
                   f"data MB/s counts {n:,} rows × 20 B (two int64 and one f32). Ratios: tetsql / DuckDB wall time.\n")
        out.append("| what | how | n | wall ms | CPU ms | peak RSS MiB | output MB | rows/s | out MB/s | data MB/s |")
        out.append("|---|---|---|---|---|---|---|---|---|---|")
        for key, text, how in labels:
            if (size, key) not in med:
                continue
            wall, rss, cpu_s, nbytes, k = med[(size, key)]
            if key == "py-baseline":
                out.append(f"| {key} | {text} | {k} | {fmt_ms(wall)} | {fmt_ms(cpu_s)} | {rss / 1024:.0f} | – | – | – | – |")
                continue
            out.append(f"| {key} | {text} ({how}) | {k} | {fmt_ms(wall)} | {fmt_ms(cpu_s)} | {rss / 1024:.0f} | "
                       f"{nbytes / 1e6:.1f} | {n / wall / 1e6:.2f}M | {nbytes / 1e6 / wall:.1f} | {n * 20 / 1e6 / wall:.0f} |")
        out.append("")
        out.append("| ratio (medians of this run) | wall | CPU |")
        out.append("|---|---|---|")
        pairs = [("tet-fast", "duck-fresh", "tetsql fast / DuckDB fresh process"),
                 ("tet-fast", "duck-warm-t2", "tetsql fast (fresh process) / DuckDB warm COPY, 2 threads"),
                 ("tet-fast", "duck-warm-t1", "tetsql fast (fresh process) / DuckDB warm COPY, 1 thread"),
                 ("tet-warm", "duck-warm-t2", "tetsql warm / DuckDB warm COPY, 2 threads"),
                 ("tet-warm", "duck-warm-t1", "tetsql warm / DuckDB warm COPY, 1 thread"),
                 ("tet-ordinary", "duck-fresh", "tetsql ordinary / DuckDB fresh process"),
                 ("tet-ordinary", "tet-fast", "tetsql ordinary / tetsql fast (speed-up of the fast path)"),
                 ("tet-csv", "tet-fast", "tetsql CSV / tetsql fast Parquet")]
        for a, b, text in pairs:
            if (size, a) in med and (size, b) in med:
                out.append(f"| {text} | {med[(size, a)][0] / med[(size, b)][0]:.2f}× | {med[(size, a)][2] / med[(size, b)][2]:.2f}× |")
        out.append("")
    out.append("## Answers\n")
    out.append("Every output file of the last round read back with pyarrow (CSV with y, x int64 and value float32: tetsql writes f32 values in their shortest float32 form); "
               "sums in float64 (exact: the values are multiples of 1/1024). `same rows` compares y, x and value "
               "row by row, in order, with the first file of the size (tetsql's fast-path Parquet). "
               "`tetsql` is `SELECT count(*), total(value), total(abs(value)), total(y), total(x) FROM grid`.\n")
    out.append("| size | file | bytes | rows | sum(value) | sum(abs(value)) | sum(y) | sum(x) | types | row groups | same rows | matches tetsql |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    want = {}
    for line in open(totals):
        size, n, s, sa, sy, sx = line.rstrip("\n").split("\t")
        want[size] = (int(n), float(s), float(sa), int(float(sy)), int(float(sx)))
        out.append(f"| {size} | tetsql SQL | – | {n} | {s} | {sa} | {sy} | {sx} | – | – | – | – |")
    bad = 0
    for line in open(checks):
        size, name, nbytes, n, s, sa, sy, sx, types, groups, same = line.rstrip("\n").split("\t")
        got = (int(n), float(s), float(sa), int(sy), int(sx))
        ok = got == want[size]
        bad += (not ok) + (same == "DIFFER")
        out.append(f"| {size} | {name} | {int(nbytes):,} | {n} | {s} | {sa} | {sy} | {sx} | {types} | {groups} | {same} | "
                   f"{'yes' if ok else '**NO**'} |")
    out.append("")
    out.append("All answers agree." if bad == 0 else f"**{bad} answer check(s) failed.**")
    print("\n".join(out))
    return 1 if bad else 0


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    cmd, args = argv[1], argv[2:]
    if cmd == "load":
        cmd_load(*args)
    elif cmd == "warm":
        cmd_warm(*args)
    elif cmd == "fresh":
        cmd_fresh(*args)
    elif cmd == "check":
        cmd_check(args)
    elif cmd == "report":
        return cmd_report(*args)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
