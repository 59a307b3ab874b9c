#!/usr/bin/env python3
"""Interop check of tetsql's exports: DuckDB, pyarrow and polars read them.

Builds tetsql (or takes --tetsql BIN), exports queries over the bundled
testdata to Parquet (one file, and hive-partitioned directories) and, when
the binary has it, to Arrow IPC (a stream piped from stdout, a stream
written with -o x.arrows, the file format written with -o x.arrow). Each
export is read by DuckDB, pyarrow and polars, and its row count,
per-column types, non-NULL counts, sums, minima, maxima, per-partition
counts and (for testdata/interop/dtypes.tet) every value are compared with
what tetsql itself answers for the same query (`tetsql --mode json`) and
with the file writer's sidecar. Any difference is printed and the exit
status is 1.

    python3 scripts/interop_export.py [--tetsql BIN] [--formats parquet,arrow]

Needs python3 with pyarrow, duckdb and polars (and Go, without --tetsql).
Run from anywhere; paths are relative to the repository root.
"""

import argparse
import io
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.compute as pc
import pyarrow.ipc as ipc
import pyarrow.parquet as pq

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ERA5 = "testdata/era5_monthly/**/*.tet"
DEMO = "testdata/demo.tet"
DTYPES = "testdata/interop/dtypes.tet"

# Each case: an input (file or quoted glob), a query, and how to export it.
CASES = [
    dict(name="era5_glob_cells", input=ERA5, sql="SELECT * FROM t2m"),
    dict(name="era5_glob_by_month", input=ERA5, sql="SELECT * FROM t2m", partition_by=["year", "month"]),
    dict(name="era5_glob_agg", input=ERA5,
         sql="SELECT month, count, null_count, sum, mean, min, max FROM t2m_agg WHERE by = 'month'"),
    dict(name="era5_glob_where", input=ERA5,
         sql="SELECT month, time_label, lat_label, lon_label, value FROM t2m "
             "WHERE month IN ('06', '07') AND lat_label >= 45"),
    dict(name="demo_temperature", input=DEMO, sql="SELECT * FROM temperature"),
    dict(name="demo_temperature_by_station", input=DEMO,
         sql="SELECT * FROM temperature WHERE station % 5 = 0 OR station_label LIKE '% %'",
         partition_by=["station_label"]),
    dict(name="demo_temperature_nullpart", input=DEMO,
         sql="SELECT time, station, value, CASE WHEN value IS NULL THEN NULL ELSE station % 3 END AS q "
             "FROM temperature", partition_by=["q"]),
    dict(name="demo_escaped_partitions", input=DEMO,
         sql="SELECT time, station, value, CASE station % 4 WHEN 0 THEN 'a/b' WHEN 1 THEN '50%=half' "
             "WHEN 2 THEN 'x:y #1' ELSE '' END AS tag FROM temperature WHERE station < 8",
         partition_by=["tag"]),
    dict(name="demo_location", input=DEMO, sql="SELECT * FROM location"),
    dict(name="demo_elevation", input=DEMO, sql="SELECT * FROM elevation"),
    dict(name="demo_station_means", input=DEMO,
         sql="SELECT station_label, count(value) AS n, avg(value) AS mean, min(value) AS lo "
             "FROM temperature GROUP BY station"),
] + [
    # exact: every value equals the one the file's writer recorded.
    dict(name="dtypes_" + ds.replace("/", "_"), input=DTYPES, sql='SELECT * FROM "%s"' % ds,
         exact=None if ds == "float/f16" else ds)
    for ds in ["u8", "int/i16", "uint/u16", "int/i32", "uint/u32", "int/i64",
               "float/f16", "float/f32", "float/f64"]
] + [
    # u64 values above 2^63-1 are REAL in SQL, rounded to 53 bits. A plain
    # projection is exported from the file's own values (all of them,
    # 2^64-1 included); a query through SQL refuses such a REAL in a UINT64
    # column, so that query keeps the values below 2^63.
    dict(name="dtypes_u64", input=DTYPES, sql='SELECT * FROM "uint/u64"', exact="uint/u64"),
    dict(name="dtypes_u64_sql", input=DTYPES,
         sql='SELECT d0 + d1 AS s, value FROM "uint/u64" WHERE value < 9223372036854775808.0'),
]

# Integer value columns are declared by dtype (INT8 … UINT64) and keep
# their width and sign; other INTEGER columns are int64.
INT_TYPES = {"INT8": "int8", "INT16": "int16", "INT32": "int32", "INT64": "int64",
             "UINT8": "uint8", "UINT16": "uint16", "UINT32": "uint32", "UINT64": "uint64"}


class Checker:
    """Runs tetsql and collects mismatches."""

    def __init__(self, tetsql):
        self.tetsql = tetsql
        self.failures = []
        self.checked = 0

    def run(self, args, **kw):
        cmd = [self.tetsql] + args
        p = subprocess.run(cmd, cwd=ROOT, capture_output=True, **kw)
        if p.returncode != 0:
            raise RuntimeError("%s: exit %d: %s" % (cmd, p.returncode, p.stderr.decode(errors="replace")))
        return p.stdout

    def json(self, inp, sql):
        out = self.run(["--mode", "json", inp, sql])
        return json.loads(out) if out.strip() else []

    def fail(self, where, msg):
        self.failures.append("%s: %s" % (where, msg))
        print("MISMATCH %s: %s" % (where, msg), flush=True)


def q(name):
    return '"' + name.replace('"', '""') + '"'


def expected(ck, case):
    """tetsql's own answers for a case: columns, types and statistics."""
    inp, sql = case["input"], case["sql"]
    decl = ck.json(inp, "CREATE TEMP VIEW v AS %s; SELECT name, type FROM pragma_table_info('v')" % sql)
    cols = [(d["name"], d["type"].upper()) for d in decl]
    exprs = ["count(*) AS n"]
    for i, (c, _) in enumerate(cols):
        exprs += ["count(%s) AS c%d" % (q(c), i), "min(%s) AS lo%d" % (q(c), i), "max(%s) AS hi%d" % (q(c), i),
                  "total(%s) AS s%d" % (q(c), i), "total(abs(%s * 1.0)) AS a%d" % (q(c), i),
                  "(SELECT group_concat(DISTINCT typeof(%s)) FROM (%s)) AS t%d" % (q(c), sql, i)]
    row = ck.json(inp, "SELECT %s FROM (%s)" % (", ".join(exprs), sql))[0]
    out = {"rows": row["n"], "cols": {}}
    for i, (c, d) in enumerate(cols):
        classes = set((row["t%d" % i] or "").split(",")) - {"null", ""}
        out["cols"][c] = dict(decl=d, classes=classes, count=row["c%d" % i], min=row["lo%d" % i],
                              max=row["hi%d" % i], sum=row["s%d" % i], abssum=row["a%d" % i])
    parts = {}
    for p in case.get("partition_by", []):
        rows = ck.json(inp, "SELECT %s AS k, count(*) AS n FROM (%s) GROUP BY 1" % (q(p), sql))
        # An empty value goes to the NULL partition, as Hive writes it.
        parts[p] = {None if r["k"] in (None, "") else str(r["k"]): r["n"] for r in rows}
    out["parts"] = parts
    out["values"] = sidecar_values(case["exact"]) if case.get("exact") else None
    return out


def allowed_types(exp):
    """The Arrow type names a column may have: from its declared SQL type,
    else from the storage classes of its values."""
    d, classes = exp["decl"], exp["classes"]
    if d in ("FLOAT32", "FLOAT16"):  # a tetsql f32/f16 value column; FLOAT is a double
        return {"float"}
    if d in INT_TYPES:
        return {INT_TYPES[d]}
    if "INT" in d:
        return {"int64"}
    if any(s in d for s in ("CHAR", "CLOB", "TEXT")):
        return {"string", "large_string"}
    if any(s in d for s in ("REAL", "FLOA", "DOUB")):
        return {"double"}
    if classes == {"integer"}:
        return {"int64"}
    if classes <= {"integer", "real"} and classes:
        return {"double"}
    if classes == {"text"}:
        return {"string", "large_string"}
    return {"null", "string"}  # no value at all


def num(v):
    return None if v is None else float(v)


def close(got, want, scale):
    """Reports whether a reader's sum matches tetsql's: SQLite has no NaN
    (a NaN total is NULL), infinities must be equal, finite sums may
    differ by rounding in the order of addition."""
    if want is None:
        return got is None or math.isnan(got)
    if got is None or math.isnan(got):
        return False
    if math.isinf(want) or math.isinf(got) or math.isinf(scale):
        return got == want
    return abs(got - want) <= 1e-9 * max(1.0, scale)


def compare(ck, where, exp, got, partition_by):
    """Compares one reader's statistics (got) with tetsql's (exp)."""
    ck.checked += 1
    if got["rows"] != exp["rows"]:
        ck.fail(where, "rows %d, tetsql %d" % (got["rows"], exp["rows"]))
    want_cols = [c for c in exp["cols"] if c not in partition_by]
    got_cols = [c for c in got["cols"] if c not in partition_by]
    if sorted(got_cols) != sorted(want_cols) or (not partition_by and got_cols != want_cols):
        ck.fail(where, "columns %s, tetsql %s" % (got_cols, want_cols))
    for c in want_cols:
        if c not in got["cols"]:
            continue
        e, g = exp["cols"][c], got["cols"][c]
        ok = allowed_types(e)
        if g["type"] not in ok:
            ck.fail(where, "column %s: type %s, want %s (declared %r)" % (c, g["type"], sorted(ok), e["decl"]))
        if g["count"] != e["count"]:
            ck.fail(where, "column %s: %d non-NULL, tetsql %d" % (c, g["count"], e["count"]))
        if g["type"] in ("string", "large_string"):
            if (g["min"], g["max"]) != (e["min"], e["max"]):
                ck.fail(where, "column %s: min/max %r/%r, tetsql %r/%r" % (c, g["min"], g["max"], e["min"], e["max"]))
            continue
        if not close(num(g["sum"]), num(e["sum"]), e["abssum"] or 0):
            ck.fail(where, "column %s: sum %r, tetsql %r" % (c, g["sum"], e["sum"]))
        for k in ("min", "max"):
            a, b = g[k], e[k]
            if g["type"] == "float" and a is not None and b is not None:
                a, b = float(pa.scalar(a, pa.float32()).as_py()), float(pa.scalar(b, pa.float32()).as_py())
            if (a is None) != (b is None) or (a is not None and float(a) != float(b)) or \
                    (isinstance(a, int) and isinstance(b, int) and a != b):
                ck.fail(where, "column %s: %s %r, tetsql %r" % (c, k, g[k], e[k]))
    if exp.get("values") is not None and not same_values(got.get("values") or [], exp["values"]):
        ck.fail(where, "values %s, the writer's sidecar %s" % (got.get("values"), exp["values"]))
    for p in partition_by:
        if got["parts"].get(p) != exp["parts"].get(p):
            ck.fail(where, "partition column %s: counts %s, tetsql %s" % (p, got["parts"].get(p), exp["parts"].get(p)))


PA_TYPES = {"float": "float", "double": "double", "string": "string", "large_string": "string",
            "string_view": "string", "null": "null"}
DUCK_TYPES = {"BIGINT": "int64", "INTEGER": "int32", "SMALLINT": "int16", "TINYINT": "int8",
              "UBIGINT": "uint64", "UINTEGER": "uint32", "USMALLINT": "uint16", "UTINYINT": "uint8",
              "FLOAT": "float", "DOUBLE": "double", "VARCHAR": "string", "BOOLEAN": "bool",
              "BLOB": "binary", '"NULL"': "null"}
POLARS_TYPES = {pl.Int64: "int64", pl.Int32: "int32", pl.Int16: "int16", pl.Int8: "int8",
                pl.UInt64: "uint64", pl.UInt32: "uint32", pl.UInt16: "uint16", pl.UInt8: "uint8",
                pl.Float32: "float", pl.Float64: "double", pl.String: "string", pl.Boolean: "bool",
                pl.Binary: "binary", pl.Null: "null"}


def part_key(v):
    return None if v is None else str(v)


def small_grid(stats):
    """Whether an export is a small 2-d cells table whose values are
    compared one by one with the writer's sidecar."""
    return stats["rows"] <= 1000 and all(c in stats["cols"] for c in ("d0", "d1", "value"))


def sidecar_values(dataset):
    """The values the writer of testdata/interop/dtypes.tet recorded for
    dataset, row-major, as Python ints or floats (NaN reads as NULL)."""
    with open(os.path.join(ROOT, DTYPES + ".expected.json")) as f:
        ds = next(d for d in json.load(f)["datasets"] if d["name"] == dataset)
    if ds["dtype"][0] in "iu":
        return [int(v) for v in ds["values"]]
    width = pa.float32() if ds["dtype"] == "f32" else pa.float64()
    return [None if v == "nan" else pa.scalar(float(v), width).as_py() for v in ds["values"]]


def same_values(got, want):
    """Element-wise equality, the sign of zero included."""
    if len(got) != len(want):
        return False
    for a, b in zip(got, want):
        if (a is None) != (b is None):
            return False
        if a is not None and (a != b or (isinstance(b, float) and math.copysign(1, a) != math.copysign(1, b))):
            return False
    return True


def read_pyarrow(kind, src, parts):
    """Statistics of an export as pyarrow reads it."""
    if kind == "parquet" and os.path.isdir(src):
        schema = pa.schema([(p, pa.string()) for p in parts])
        t = pads.dataset(src, format="parquet", partitioning=pads.partitioning(schema, flavor="hive")).to_table()
    elif kind == "parquet":
        t = pq.read_table(src)
    elif kind == "arrow-file":
        with open(src, "rb") as f:
            t = ipc.open_stream(f).read_all()
    elif kind == "arrow-ipcfile":
        t = ipc.open_file(src).read_all()
    else:
        p = subprocess.Popen(src, cwd=ROOT, stdout=subprocess.PIPE)
        t = ipc.open_stream(p.stdout).read_all()  # batch by batch, as a pipe
        if p.wait() != 0:
            raise RuntimeError("%s: exit %d" % (src, p.returncode))
    out = {"rows": t.num_rows, "cols": {}, "parts": {}}
    for f in t.schema:
        c = t[f.name]
        ty = PA_TYPES.get(str(f.type), str(f.type))
        st = {"type": ty, "count": pc.count(c).as_py()}
        mm = pc.min_max(c).as_py() if ty != "null" else {"min": None, "max": None}
        st["min"], st["max"] = mm["min"], mm["max"]
        if ty not in ("string", "null"):
            st["sum"] = pc.sum(c.cast(pa.float64(), safe=False)).as_py()
        out["cols"][f.name] = st
    for p in parts:
        g = t.group_by(p).aggregate([([], "count_all")])
        out["parts"][p] = {part_key(k): n for k, n in zip(g[p].to_pylist(), g["count_all"].to_pylist())}
    if small_grid(out):
        out["values"] = t.sort_by([("d0", "ascending"), ("d1", "ascending")])["value"].to_pylist()
    return out


def read_duckdb(kind, src, parts):
    """Statistics of an export as DuckDB reads it."""
    con = duckdb.connect()
    proc = None
    if kind == "parquet" and os.path.isdir(src):
        types = ", ".join("'%s': VARCHAR" % p for p in parts)
        rel = "read_parquet('%s/**/*.parquet', hive_partitioning = true, hive_types = {%s})" % (src, types)
    elif kind == "parquet":
        rel = "read_parquet('%s')" % src
    else:
        if kind == "arrow-file":
            stream = ipc.open_stream(open(src, "rb"))
        elif kind == "arrow-ipcfile":
            stream = ipc.open_file(src).read_all()
        else:
            proc = subprocess.Popen(src, cwd=ROOT, stdout=subprocess.PIPE)
            stream = ipc.open_stream(proc.stdout)
        con.register("arrow_in", stream)  # DuckDB scans the record batch reader
        con.execute("CREATE TEMP TABLE t AS SELECT * FROM arrow_in")
        rel = "t"
        if proc and proc.wait() != 0:
            raise RuntimeError("%s: exit %d" % (src, proc.returncode))
    desc = con.execute("DESCRIBE SELECT * FROM %s" % rel).fetchall()
    out = {"rows": con.execute("SELECT count(*) FROM %s" % rel).fetchone()[0], "cols": {}, "parts": {}}
    for name, dtype, *_ in desc:
        ty = DUCK_TYPES.get(dtype, dtype)
        c = q(name)
        sum_expr = "NULL" if ty in ("string", "null") else "sum(%s::DOUBLE)" % c
        n, lo, hi, s = con.execute("SELECT count(%s), min(%s), max(%s), %s FROM %s" % (c, c, c, sum_expr, rel)).fetchone()
        out["cols"][name] = {"type": ty, "count": n, "min": lo, "max": hi, "sum": s}
    for p in parts:
        rows = con.execute("SELECT %s, count(*) FROM %s GROUP BY 1" % (q(p), rel)).fetchall()
        out["parts"][p] = {part_key(k): n for k, n in rows}
    if small_grid(out):
        out["values"] = [r[0] for r in con.execute("SELECT value FROM %s ORDER BY d0, d1" % rel).fetchall()]
    con.close()
    return out


def read_polars(kind, src, parts):
    """Statistics of an export as polars reads it."""
    if kind == "parquet" and os.path.isdir(src):
        df = pl.scan_parquet(os.path.join(src, "**", "*.parquet"), hive_partitioning=True,
                             hive_schema={p: pl.String for p in parts}).collect()
    elif kind == "parquet":
        df = pl.read_parquet(src)
    elif kind == "arrow-file":
        df = pl.read_ipc_stream(src)
    elif kind == "arrow-ipcfile":
        df = pl.read_ipc(src)
    else:
        p = subprocess.run(src, cwd=ROOT, capture_output=True, check=True)
        df = pl.read_ipc_stream(io.BytesIO(p.stdout))
    out = {"rows": df.height, "cols": {}, "parts": {}}
    for name, dtype in df.schema.items():
        ty = POLARS_TYPES.get(dtype, str(dtype))
        c = pl.col(name)
        st = {"type": ty, "count": df.select(c.count()).item()}
        st["min"], st["max"] = df.select(c.min()).item(), df.select(c.max()).item()
        if ty not in ("string", "null"):
            st["sum"] = df.select(c.cast(pl.Float64).sum()).item()
        out["cols"][name] = st
    for p in parts:
        g = df.group_by(p).len()
        out["parts"][p] = {part_key(k): n for k, n in g.iter_rows()}
    if small_grid(out):
        out["values"] = df.sort(["d0", "d1"])["value"].to_list()
    return out


def read_all(kind, src, parts):
    """Yields (reader, statistics) of one export for every reader."""
    for name, f in (("pyarrow", read_pyarrow), ("duckdb", read_duckdb), ("polars", read_polars)):
        yield name, f(kind, src, parts)


def export_and_check(ck, case, fmt, tmp):
    """Exports one case in one format and checks every reader."""
    exp = expected(ck, case)
    parts = case.get("partition_by", [])
    base = os.path.join(tmp, case["name"])
    if fmt == "parquet":
        if parts:
            target = base + ".d"
            ck.run(["--partition-by", ",".join(parts), "-o", target, case["input"], case["sql"]])
        else:
            target = base + ".parquet"
            ck.run(["-o", target, case["input"], case["sql"]])
        sources = [("parquet", target)]
    else:
        target = base + ".arrows"
        ck.run(["-o", target, case["input"], case["sql"]])
        ipcfile = base + ".arrow"  # the IPC file format (random access), not the stream
        ck.run(["-o", ipcfile, case["input"], case["sql"]])
        sources = [("arrow-file", target), ("arrow-ipcfile", ipcfile),
                   ("arrow-pipe", [ck.tetsql, "--mode", "arrow", case["input"], case["sql"]])]
    for kind, src in sources:
        for reader, got in read_all(kind, src, parts):
            compare(ck, "%s [%s, %s]" % (case["name"], kind, reader), exp, got, parts)


def has_arrow(tetsql):
    p = subprocess.run([tetsql, "--mode", "arrow", DEMO, "SELECT 1 AS x"], cwd=ROOT, capture_output=True)
    return p.returncode == 0 and p.stdout[:4] in (b"\xff\xff\xff\xff", b"ARRO")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tetsql", help="tetsql binary (default: go build ./cmd/tetsql)")
    ap.add_argument("--formats", default="auto",
                    help="parquet, arrow or both, comma-separated (default: parquet, and arrow when the binary has it)")
    ap.add_argument("--keep", help="write the exports into this directory and keep them")
    args = ap.parse_args()
    tmp = args.keep or tempfile.mkdtemp(prefix="tetsql-interop-")
    os.makedirs(tmp, exist_ok=True)
    try:
        tetsql = args.tetsql
        if not tetsql:
            tetsql = os.path.join(tmp, "tetsql")
            subprocess.run(["go", "build", "-o", tetsql, "./cmd/tetsql"], cwd=ROOT, check=True)
        tetsql = os.path.abspath(tetsql)
        ck = Checker(tetsql)
        arrow = has_arrow(tetsql)
        if args.formats == "auto":
            formats = ["parquet"] + (["arrow"] if arrow else [])
            if not arrow:
                print("SKIP arrow: this tetsql has no --mode arrow (Arrow IPC output)")
        else:
            formats = [f.strip() for f in args.formats.split(",") if f.strip()]
            if "arrow" in formats and not arrow:
                print("FAIL arrow: asked for, but this tetsql has no --mode arrow")
                return 1
        print("duckdb %s, pyarrow %s, polars %s; formats %s" % (duckdb.__version__, pa.__version__,
                                                               pl.__version__, ",".join(formats)))
        for fmt in formats:
            for case in CASES:
                if fmt == "arrow" and case.get("partition_by"):
                    continue
                try:
                    export_and_check(ck, case, fmt, tmp)
                except Exception as e:  # a failed export or read is a mismatch too
                    ck.fail("%s [%s]" % (case["name"], fmt), "%s: %s" % (type(e).__name__, e))
        print("checked %d reads of %d cases; %d mismatches" % (ck.checked, len(CASES), len(ck.failures)))
        return 1 if ck.failures else 0
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
