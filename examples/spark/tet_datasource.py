"""A PySpark (Spark 4) data source "tet": .tet, .b2nd and .tgm files read
through tetsql.

    from tet_datasource import TetDataSource
    spark.dataSource.register(TetDataSource)
    df = (spark.read.format("tet")
          .option("path", "data/era5/**/*.tet")     # a file or a glob
          .option("dataset", "t2m")                 # the cells table
          .option("where", "lat_label >= 45")       # optional, run by tetsql
          .load())

Options:
    path        a file, or a glob (tetsql's syntax: *, ?, [...], ** segments)
    dataset     the dataset's cells table (its name, as `.tables` shows it)
    where       an SQL condition tetsql applies while reading (pushdown to
                chunks, labels and, for a glob, files)
    tetsql      the tetsql binary (default: tetsql on PATH)
    splitBytes  files larger than this are read as several partitions, by
                ranges of whole chunks along the first axis (default 256MiB)
    transport   arrow (default: tetsql --mode arrow, batches from a pipe) or
                parquet (tetsql -o a temporary .parquet, read back)
    onError     fail (default) or skip: a glob's unreadable files

The schema is the cells table's columns, typed from their SQL types
(INTEGER -> long, FLOAT32 and FLOAT16 -> float, REAL -> double, TEXT ->
string, an integer dtype's INT8 ... UINT64 -> the Spark type holding it);
a glob adds `file` and one string column per hive `key=value` directory.
Every file is one Spark partition (or several, above splitBytes), read by its own
tetsql process on the executor, so the files and the binary must be at the
same paths on every executor.
"""

import json
import math
import os
import subprocess
import tempfile
from dataclasses import dataclass
from typing import Iterator, List, Optional

from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition

# Spark types of tetsql's declared column types. Integer value columns are
# declared by dtype; Spark has no unsigned types, so an unsigned one gets
# the next wider signed type (UINT64: DECIMAL(20,0)).
# f32/f16 value columns are FLOAT32/FLOAT16 (FLOAT in tetsql before that
# naming, kept so an older binary still works).
SQL_TYPES = {"INTEGER": "BIGINT", "FLOAT32": "FLOAT", "FLOAT16": "FLOAT", "FLOAT": "FLOAT",
             "REAL": "DOUBLE", "TEXT": "STRING",
             "INT8": "TINYINT", "INT16": "SMALLINT", "INT32": "INT", "INT64": "BIGINT",
             "UINT8": "SMALLINT", "UINT16": "INT", "UINT32": "BIGINT", "UINT64": "DECIMAL(20,0)"}
ALIAS = "tetsrc"  # the schema name tetsql gives the opened file or glob


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _lit(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def is_glob(path: str) -> bool:
    """tetsql's rule: a path with a glob character that is not a file."""
    return any(c in path for c in "*?[\\") and not os.path.exists(path)


def glob_escape(path: str) -> str:
    """A glob matching exactly path: its magic characters escaped, and the
    file name's first character too, so the pattern is always a glob (then
    tetsql gives it the `file` and hive columns of the whole glob)."""
    esc = "".join("\\" + c if c in "*?[\\" else c for c in path)
    head, sep, name = esc.rpartition("/")
    if not name.startswith("\\"):
        name = "\\" + name
    return head + sep + name


def hive_keys(path: str) -> List[str]:
    """The hive keys of path's directories, as tetsql finds them."""
    keys = []
    for seg in path.split("/")[:-1]:
        k, eq, _ = seg.partition("=")
        if eq and k:
            keys.append(k.lower())
    return keys


def run_json(tetsql: str, args: List[str]) -> list:
    p = subprocess.run([tetsql, "--mode", "json"] + args, capture_output=True)
    if p.returncode != 0:
        raise RuntimeError("tetsql %s: %s" % (" ".join(args), p.stderr.decode(errors="replace").strip()))
    return json.loads(p.stdout) if p.stdout.strip() else []


@dataclass
class TetPartition(InputPartition):
    """One tetsql read: a file, optionally a range [lo, hi) of its first axis."""
    file: str
    axis: Optional[str] = None
    lo: int = 0
    hi: int = 0


class TetDataSource(DataSource):
    """Spark data source "tet": files read by tetsql, one partition per file
    (or per range of chunks of a large file)."""

    @classmethod
    def name(cls):
        return "tet"

    def opt(self, key: str, default=None):
        """An option (Spark passes them case-insensitively); path and
        dataset are required."""
        v = self.options.get(key, default)
        if v is None and key in ("path", "dataset"):
            raise ValueError('format "tet" needs .option("%s", ...)' % key)
        return v

    @property
    def path(self) -> str:
        return self.opt("path")

    @property
    def dataset(self) -> str:
        return self.opt("dataset")

    @property
    def tetsql(self) -> str:
        return self.opt("tetsql", "tetsql")

    @property
    def glob(self) -> bool:
        return is_glob(self.path)

    def columns(self):
        """The cells table's (name, SQL type) pairs, from tetsql."""
        if getattr(self, "_cols", None) is None:
            sql = "SELECT name, type FROM pragma_table_info(%s, %s)" % (_lit(self.dataset), _lit(ALIAS))
            rows = run_json(self.tetsql, self.common_flags() + [ALIAS + "=" + self.path, sql])
            if not rows:
                raise ValueError("tetsql: no table %r in %s" % (self.dataset, self.path))
            self._cols = [(r["name"], r["type"].upper()) for r in rows]
        return self._cols

    def common_flags(self) -> List[str]:
        mode = self.opt("onError")
        return ["--on-error", mode] if mode else []

    def schema(self):
        parts = []
        for name, typ in self.columns():
            if typ not in SQL_TYPES:
                raise ValueError("tetsql column %s has SQL type %r, which format tet cannot map" % (name, typ))
            parts.append("`%s` %s" % (name.replace("`", "``"), SQL_TYPES[typ]))
        return ", ".join(parts)

    def reader(self, schema):
        return TetReader(self, schema)


class TetReader(DataSourceReader):
    """Plans the partitions on the driver and reads each with tetsql."""

    def __init__(self, src: TetDataSource, schema):
        self.tetsql = src.tetsql
        self.path, self.dataset, self.glob = src.path, src.dataset, src.glob
        self.options = {k.lower(): v for k, v in src.options.items()}  # Spark's keys are case-insensitive
        self.flags = src.common_flags()
        self.names = [f.name for f in schema.fields]
        self.schema = schema
        # A glob's hive columns: those named by a key=value directory of
        # some listed path (tetsql refuses a key equal to another column).
        keys = {k for f, _ in self.files() for k in hive_keys(f)} if self.glob else set()
        self.hive = [n for n, _ in src.columns()[1:] if n.lower() in keys]

    def files(self):
        """(path, size) of every file: tet_files for a glob."""
        if not hasattr(self, "_files"):
            if self.glob:
                rows = run_json(self.tetsql, ["SELECT path, size FROM tet_files(%s) ORDER BY path" % _lit(self.path)])
                self._files = [(r["path"], r["size"]) for r in rows]
            else:
                self._files = [(self.path, os.path.getsize(self.path))]
        return self._files

    def partitions(self):
        split = int(self.options.get("splitbytes", 256 << 20))
        out = []
        for path, size in self.files():
            pieces = math.ceil(size / split) if split > 0 else 1
            if pieces <= 1:
                out.append(TetPartition(path))
                continue
            sql = "SELECT name, size, chunk_size FROM tet_dims WHERE dataset = %s AND axis = 0" % _lit(self.dataset)
            dims = run_json(self.tetsql, [ALIAS + "=" + path, sql])
            if not dims:
                out.append(TetPartition(path))
                continue
            d = dims[0]
            rows = math.ceil(d["size"] / d["chunk_size"])  # chunk rows along the first axis
            per = math.ceil(rows / min(pieces, rows)) * d["chunk_size"]
            for lo in range(0, d["size"], per):
                out.append(TetPartition(path, d["name"], lo, min(lo + per, d["size"])))
        return out

    def query(self, part: TetPartition) -> str:
        present = set(hive_keys(part.file)) if self.glob else set()
        sel = []
        for n in self.names:
            if n in self.hive and n.lower() not in present:
                sel.append("NULL AS %s" % _ident(n))  # a key this file's path lacks
            else:
                sel.append(_ident(n))
        sql = "SELECT %s FROM %s.%s" % (", ".join(sel) or "1", ALIAS, _ident(self.dataset))
        if part.axis is not None:
            sql += " WHERE %s >= %d AND %s < %d" % (_ident(part.axis), part.lo, _ident(part.axis), part.hi)
        where = self.options.get("where")
        if not where:
            return sql
        if len(present) < len(self.hive):
            # The condition may name the missing keys: apply it to the NULLs.
            return "SELECT * FROM (%s) WHERE (%s)" % (sql, where)
        return sql + (" AND " if part.axis is not None else " WHERE ") + "(%s)" % where

    def lacks_dataset(self, msg: str) -> bool:
        """Whether tetsql failed because a glob's file does not hold the
        dataset: such a file holds none of its rows, as in tetsql's own
        many-file tables."""
        return self.glob and ("no such table: %s.%s" % (ALIAS, self.dataset)) in msg

    def read(self, partition: TetPartition) -> Iterator:
        import pyarrow as pa
        from pyspark.sql.pandas.types import to_arrow_schema

        target = to_arrow_schema(self.schema)
        src = ALIAS + "=" + (glob_escape(partition.file) if self.glob else partition.file)
        args = [self.tetsql] + self.flags + [src, self.query(partition)]
        batches = self._parquet(args) if self.options.get("transport") == "parquet" else self._arrow(args)
        for b in batches:
            yield pa.RecordBatch.from_arrays([b.column(i).cast(target.field(i).type) for i in range(b.num_columns)],
                                             schema=target)

    def _arrow(self, args):
        import pyarrow.ipc as ipc

        cmd = args[:1] + ["--mode", "arrow"] + args[1:]
        with tempfile.TemporaryFile() as errf:
            p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=errf)
            failure = None
            try:
                try:
                    for b in ipc.open_stream(p.stdout):
                        yield b
                except Exception as e:  # a cut stream: tetsql's stderr says why
                    failure = e
                if failure is None and p.wait() == 0:
                    return
            finally:
                if p.poll() is None:  # Spark stopped early (a LIMIT) or a read failed
                    p.kill()
                    p.wait()
                p.stdout.close()
            errf.seek(0)
            msg = errf.read().decode(errors="replace").strip()
            if self.lacks_dataset(msg):
                return
            if 'unknown mode "arrow"' in msg:
                msg += ' (this tetsql has no Arrow output: use .option("transport", "parquet"))'
            raise RuntimeError("tetsql %s: exit %s: %s%s" % (cmd[-1], p.returncode, msg,
                                                           " (%s)" % failure if failure else ""))

    def _parquet(self, args):
        import pyarrow.parquet as pq

        with tempfile.TemporaryDirectory(prefix="tet-spark-") as d:
            out = os.path.join(d, "part.parquet")
            p = subprocess.run(args[:1] + ["-o", out] + args[1:], capture_output=True)
            if p.returncode != 0 and self.lacks_dataset(p.stderr.decode(errors="replace")):
                return
            if p.returncode != 0:
                raise RuntimeError("tetsql %s: %s" % (args[-1], p.stderr.decode(errors="replace").strip()))
            yield from pq.ParquetFile(out).iter_batches()
