#!/usr/bin/env python3
"""Time tet-py 0.8.3 reductions in-process, for comparison with tetsql.

Not part of the build or of go test: bench/agg.sh runs it only when tet-py
is installed.

usage: tetpy_bench.py [-n N] KEY=ABSPATH:DATASET:AXIS:START:STOP ...

For each file: whole-dataset TetFile.sum/mean/min/max/var(ds), and the same
ops over the slab START <= index < STOP on AXIS (a query document with a
selection), plus read_numpy + numpy reductions (f64 accumulators) for both.
Output lines (tab-separated) match bench/aggbench:
    sample  KEY  WALL_SECONDS  CPU_SECONDS  BYTES
    result  KEY  op=value ...
"""
import os
import sys
import time

import numpy as np
import tet

OPS = ["sum", "mean", "min", "max", "var"]


def timed(fn):
    c0, t0 = time.process_time(), time.perf_counter()
    v = fn()
    return v, time.perf_counter() - t0, time.process_time() - c0


def sample(key, wall, cpu, nbytes=0):
    print(f"sample\t{key}\t{wall:.9f}\t{cpu:.9f}\t{nbytes}")


def result(key, vals):
    print("result\t" + key + "".join(f"\t{k}={float(v)!r}" for k, v in vals.items()))


def numpy_ops(a):
    return {
        "sum": np.sum(a, dtype=np.float64),
        "mean": np.mean(a, dtype=np.float64),
        "min": a.min(),
        "max": a.max(),
        "var": np.var(a, dtype=np.float64),
    }


def bench(key, path, ds, axis, start, stop, n):
    f = tet.open(path)  # absolute path: tet-py fails on relative ones
    ndim = f.dataset(ds).ndim
    sel = [{} for _ in range(ndim)]
    sel[axis] = {"start": start, "stop": stop}
    calls = {
        "whole": lambda op: (lambda: getattr(f, op)(ds)),
        "slab": lambda op: (
            lambda: f.query_execute(tet.build_query(ds, selection=sel, **{op: []}), raw=False).scalar
        ),
    }
    reads = {"whole": lambda: f.read_numpy(ds), "slab": lambda: f.read_numpy(ds, sel)}
    for scope in ("whole", "slab"):
        vals = {}
        for op in OPS:  # warm-up, and the values to check
            vals[op] = calls[scope](op)()
        result(f"tetpy/{key}/{scope}/all", vals)
        a = reads[scope]()
        result(f"numpy/{key}/{scope}/all", numpy_ops(a))
        del a
        for _ in range(n):
            tw = tc = 0.0
            for op in OPS:
                _, w, c = timed(calls[scope](op))
                sample(f"tetpy/{key}/{scope}/{op}", w, c)
                tw, tc = tw + w, tc + c
            sample(f"tetpy/{key}/{scope}/all", tw, tc)
            a, w1, c1 = timed(reads[scope])
            _, w2, c2 = timed(lambda: numpy_ops(a))
            del a
            sample(f"numpy/{key}/{scope}/read", w1, c1)
            sample(f"numpy/{key}/{scope}/all", w1 + w2, c1 + c2)
        sys.stdout.flush()


def main(argv):
    n = 5
    if len(argv) >= 2 and argv[0] == "-n":
        n, argv = int(argv[1]), argv[2:]
    print(f"# tet-py {getattr(tet, '__version__', '?')} core {tet.core_version()}", file=sys.stderr)
    for spec in argv:
        key, rest = spec.split("=", 1)
        path, ds, axis, start, stop = rest.rsplit(":", 4)
        try:
            bench(key, os.path.abspath(path), ds, int(axis), int(start), int(stop), n)
        except BaseException as e:  # tet-py panics surface as pyo3 PanicException
            if isinstance(e, KeyboardInterrupt):
                raise
            msg = f"{type(e).__name__}: {e}".replace("\t", " ").replace("\n", " ")[:300]
            print(f"# tet-py failed on {key}: {msg}", file=sys.stderr)
            print(f"result\ttetpy/{key}/error\tmessage={msg}")
            sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
