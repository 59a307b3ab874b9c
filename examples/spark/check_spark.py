#!/usr/bin/env python3
"""Checks the "tet" Spark data source against tetsql's own answers.

    PYTHONPATH=examples/spark python3 examples/spark/check_spark.py \\
        --tetsql ./tetsql --transports arrow,parquet

Runs local Spark (local[2]) from the repository root on the bundled
testdata: a glob of monthly files (one partition per file, hive columns,
a pushed `where`, a Spark filter), a single file split into chunk ranges,
and a glob whose files lack a hive key. Counts, sums, extremes, schema
and partition counts must match what tetsql answers with --mode json.
The first transport gets every check, the others a glob's and a split
file's summaries. Prints one "ok transport=..." line per transport; exits
1 on a mismatch.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ERA5 = "testdata/era5_monthly/**/*.tet"
DEMO = "testdata/demo.tet"
DTYPES = "testdata/interop/dtypes.tet"
SPARK_TYPES = {"INTEGER": "bigint", "FLOAT32": "float", "FLOAT16": "float", "REAL": "double", "TEXT": "string"}

failures = []


def tetsql_json(tetsql, *args):
    p = subprocess.run([tetsql, "--mode", "json"] + list(args), cwd=ROOT, capture_output=True, check=True)
    return json.loads(p.stdout)


def check(what, got, want, tol=0.0):
    ok = got == want if not tol else (got is not None and want is not None and abs(got - want) <= tol)
    print("  %-58s %s %r%s" % (what, "==" if ok else "!=", got, "" if ok else " (tetsql %r)" % (want,)))
    if not ok:
        failures.append(what)


def summary(df):
    """count(*), count(value), sum(value), min/max of value from Spark."""
    r = df.selectExpr("count(*) AS n", "count(value) AS nv", "sum(CAST(value AS DOUBLE)) AS s",
                      "min(value) AS lo", "max(value) AS hi").collect()[0]
    return r.n, r.nv, r.s, r.lo, r.hi


def want_summary(tetsql, inp, table, where=""):
    w = " WHERE " + where if where else ""
    r = tetsql_json(tetsql, inp, "SELECT count(*) AS n, count(value) AS nv, total(value) AS s, "
                    "min(value) AS lo, max(value) AS hi FROM %s%s" % (table, w))[0]
    return r["n"], r["nv"], r["s"], r["lo"], r["hi"]


def compare(label, got, want):
    names = ("count(*)", "count(value)", "sum(value)", "min(value)", "max(value)")
    for name, g, w in zip(names, got, want):
        check("%s: %s" % (label, name), g, w, tol=1e-9 * max(1.0, abs(w or 0)) if name == "sum(value)" else 0.0)


def run(spark, tetsql, transport, tmp, full):
    """The checks with one transport; with full false only a glob's and a
    split file's summaries (the transport is all that differs)."""
    def load(path, dataset, **opts):
        r = spark.read.format("tet").option("path", path).option("dataset", dataset) \
            .option("tetsql", tetsql).option("transport", transport)
        for k, v in opts.items():
            r = r.option(k, v)
        return r.load()

    print("transport=%s" % transport)
    # A glob: one partition per file, its schema that of tetsql's table.
    df = load(ERA5, "t2m").cache()  # read once by the next five jobs
    cols = tetsql_json(tetsql, ERA5, "SELECT name, type FROM pragma_table_info('t2m', 'era5_monthly')")
    check("glob: schema", [(f.name, f.dataType.simpleString()) for f in df.schema.fields],
          [(c["name"], SPARK_TYPES[c["type"]]) for c in cols])
    check("glob: partitions (one per file)", df.rdd.getNumPartitions(), 12)
    compare("glob", summary(df), want_summary(tetsql, ERA5, "t2m"))
    by_month = {r.month: r.n for r in df.groupBy("month").agg({"*": "count"}).withColumnRenamed("count(1)", "n").collect()}
    want = {r["month"]: r["n"] for r in tetsql_json(tetsql, ERA5, "SELECT month, count(*) AS n FROM t2m GROUP BY month")}
    check("glob: rows per month", by_month, want)
    first = df.where("month = '01'").selectExpr("min(file) AS f", "max(file) AS g").collect()[0]
    check("glob: file column", (first.f, first.g), ("testdata/era5_monthly/year=2024/month=01/t2m.tet",) * 2)

    df.unpersist()
    if not full:
        df = load(DEMO, "temperature", splitBytes="100000")
        check("single file: partitions (chunk ranges)", df.rdd.getNumPartitions(), 4)
        compare("single file", summary(df), want_summary(tetsql, DEMO, "temperature"))
        return

    # A condition pushed to tetsql (hive terms skip files) and a Spark filter on top.
    where = "month IN ('06', '07') AND lat_label >= 45"
    compare("glob, where", summary(load(ERA5, "t2m", where=where)), want_summary(tetsql, ERA5, "t2m", where))
    check("glob, Spark filter month = '03'", df.select("month", "value").where("month = '03'").count(),
          tetsql_json(tetsql, ERA5, "SELECT count(*) AS n FROM t2m WHERE month = '03'")[0]["n"])

    # One file split into ranges of whole chunks of its first axis:
    # 415,485 bytes over 100,000 -> 5 pieces of 12 time chunks -> 3 chunks (96 days) each.
    df = load(DEMO, "temperature", splitBytes="100000")
    check("single file: partitions (chunk ranges)", df.rdd.getNumPartitions(), 4)
    compare("single file", summary(df), want_summary(tetsql, DEMO, "temperature"))
    r = df.selectExpr("sum(time) AS st", "min(station_label) AS a", "max(station_label) AS b").collect()[0]
    w = tetsql_json(tetsql, DEMO, "SELECT sum(time) AS st, min(station_label) AS a, max(station_label) AS b "
                    "FROM temperature")[0]
    check("single file: sum(time), min/max(station_label)", (r.st, r.a, r.b), (w["st"], w["a"], w["b"]))

    where = "station_label IN ('Oslo', 'Lagos') AND time_label >= '2024-06-15'"
    compare("single file split, where", summary(load(DEMO, "temperature", splitBytes="100000", where=where)),
            want_summary(tetsql, DEMO, "temperature", where))

    # Integer dtypes: Spark types wide enough (no unsigned ones in Spark).
    for ds, where, typ in (("int/i16", "", "smallint"), ("uint/u32", "", "bigint"),
                           ("uint/u64", "value < 1.8e19", "decimal(20,0)")):
        df = load(DTYPES, ds, where=where) if where else load(DTYPES, ds)
        check("%s: value type" % ds, df.schema["value"].dataType.simpleString(), typ)
        compare(ds, summary(df), want_summary(tetsql, DTYPES, '"%s"' % ds, where))

    # A glob whose files do not all have the hive key (NULL there), one
    # without the dataset (none of its rows).
    mixed = os.path.join(tmp, "mixed")
    if not os.path.exists(mixed):
        os.makedirs(os.path.join(mixed, "month=01"))
        shutil.copy(os.path.join(ROOT, "testdata/era5_monthly/year=2024/month=01/t2m.tet"), os.path.join(mixed, "month=01"))
        shutil.copy(os.path.join(ROOT, "testdata/era5_monthly/year=2024/month=02/t2m.tet"), os.path.join(mixed, "flat.tet"))
        shutil.copy(os.path.join(ROOT, DEMO), os.path.join(mixed, "month=01", "other.tet"))  # no t2m in it
    g = mixed + "/**/*.tet"
    df = load(g, "t2m")
    check("glob, mixed files: partitions", df.rdd.getNumPartitions(), 3)
    got = {r.month: r.n for r in df.groupBy("month").agg({"*": "count"}).withColumnRenamed("count(1)", "n").collect()}
    want = {r["month"]: r["n"] for r in tetsql_json(tetsql, g, "SELECT month, count(*) AS n FROM t2m GROUP BY month")}
    check("glob, a file without the hive key: rows per month", got, want)
    compare("glob, where on a key one file lacks", summary(load(g, "t2m", where="month IS NULL")),
            want_summary(tetsql, g, "t2m", "month IS NULL"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tetsql", required=True)
    ap.add_argument("--transports", default="arrow")
    args = ap.parse_args()
    tetsql = os.path.abspath(args.tetsql)
    os.chdir(ROOT)
    from pyspark.sql import SparkSession
    from tet_datasource import TetDataSource

    spark = (SparkSession.builder.master("local[2]").appName("tet-check")
             .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false").config("spark.sql.shuffle.partitions", "2").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    spark.dataSource.register(TetDataSource)
    print("pyspark %s" % spark.version)
    tmp = tempfile.mkdtemp(prefix="tet-spark-check-")
    try:
        for i, t in enumerate(args.transports.split(",")):
            before = len(failures)
            run(spark, tetsql, t, tmp, full=(i == 0))
            print("%s transport=%s" % ("ok" if len(failures) == before else "FAIL", t))
    finally:
        spark.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
