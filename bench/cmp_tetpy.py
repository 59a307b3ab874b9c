#!/usr/bin/env python3
"""tet-py 0.8.3 sums for bench/compare.sh (the reductions row of its table).

usage: cmp_tetpy.py [-n N] KEY=ABSPATH:DATASET:AXIS:START:STOP ...

Per spec: whole-array TetFile.sum(ds) as KEY/full, and the sum over
START <= index < STOP on AXIS (query_execute with a selection) as KEY/slab.
One unmeasured call each first (its value is the result checked), then N
measured, alternating. Lines match bench/cmpbench:
    sample  KEY  WALL_SECONDS  CPU_SECONDS  0
    result  KEY  sum=VALUE
"""
import os
import sys
import time

import tet


def main(argv):
    n = 3
    if len(argv) >= 2 and argv[0] == "-n":
        n, argv = int(argv[1]), argv[2:]
    for spec in argv:
        key, rest = spec.split("=", 1)
        path, ds, axis, start, stop = rest.rsplit(":", 4)
        f = tet.open(os.path.abspath(path))
        sel = [{} for _ in range(f.dataset(ds).ndim)]
        sel[int(axis)] = {"start": int(start), "stop": int(stop)}
        calls = {
            "full": lambda: f.sum(ds),
            "slab": lambda: f.query_execute(tet.build_query(ds, selection=sel, sum=[]), raw=False).scalar,
        }
        for scope, fn in calls.items():
            print(f"result\t{key}/{scope}\tsum={float(fn())!r}")
        for _ in range(n):
            for scope, fn in calls.items():
                c0, t0 = time.process_time(), time.perf_counter()
                fn()
                print(f"sample\t{key}/{scope}\t{time.perf_counter() - t0:.9f}\t{time.process_time() - c0:.9f}\t0")
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
