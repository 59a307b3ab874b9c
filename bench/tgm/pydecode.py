#!/usr/bin/env python3
"""Time the reference package (tensogram, the Python binding of ECMWF's
Rust library) decoding every object of .tgm files on one thread, for
comparison with bench/tgm/gobench.

Usage: pydecode.py [--reps N] DIR CASE ...

For each CASE it reads DIR/CASE.tgm into memory, finds its messages
(tensogram.scan) and copies each into its own bytes object, so neither
file I/O nor scanning is timed. It runs one unmeasured pass, then decodes
every message N times with tensogram.decode (threads=0 and
TENSOGRAM_THREADS=1: sequential; native byte order; NaN / Inf restored;
OPENBLAS_NUM_THREADS=1),
once with verify_hash=False and once with verify_hash=True per pass, and
prints per pass and setting a tab-separated

    TOOL  CASE  PASS  MB_PER_CPU_S  MB_PER_WALL_S

with TOOL py (hashes not verified) or pyhash (verified), MB 10^6 decoded
bytes (the arrays' nbytes) and CPU seconds the process's
(time.process_time, CLOCK_PROCESS_CPUTIME_ID, as gobench), so a helper
thread of the library would be counted. Outside the timing each pass's
arrays are checked against the first pass's (SHA-256), and one line

    sum  py  CASE  HEX

gives the SHA-256 of all decoded bytes in file order, which report.py
compares with gobench's.
"""
import argparse
import hashlib
import os
import sys
import time

# Before the libraries read them: the reference decodes sequentially, and
# NumPy's OpenBLAS starts no spinning worker threads (process CPU time
# would count them against the reference).
os.environ["TENSOGRAM_THREADS"] = "1"
os.environ["OPENBLAS_NUM_THREADS"] = "1"
os.environ["OMP_NUM_THREADS"] = "1"
import tensogram as tg  # noqa: E402


def decode_all(msgs, verify):
    out = []
    for m in msgs:
        for _desc, arr in tg.decode(m, threads=0, verify_hash=verify).objects:
            out.append(arr)
    return out


def digests(arrs):
    return [hashlib.sha256(memoryview(a).cast("B")).digest() for a in arrs]


def run(path, name, reps):
    with open(path, "rb") as fh:
        data = fh.read()
    msgs = [data[o:o + n] for o, n in tg.scan(data)]
    del data
    first = decode_all(msgs, True)
    sums = digests(first)
    total = sum(a.nbytes for a in first)
    whole = hashlib.sha256()
    for a in first:
        whole.update(memoryview(a).cast("B"))
    print(f"sum\tpy\t{name}\t{whole.hexdigest()}", flush=True)
    del first
    for p in range(reps):
        for tool, verify in (("py", False), ("pyhash", True)):
            t, c = time.perf_counter(), time.process_time()
            arrs = decode_all(msgs, verify)
            el, cpu = time.perf_counter() - t, time.process_time() - c
            if digests(arrs) != sums:
                sys.exit(f"{path}: decodes differently on pass {p} ({tool})")
            del arrs
            print(f"{tool}\t{name}\t{p}\t{total / cpu / 1e6:.1f}\t{total / el / 1e6:.1f}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("dir")
    ap.add_argument("cases", nargs="+")
    a = ap.parse_args()
    for name in a.cases:
        run(os.path.join(a.dir, name + ".tgm"), name, a.reps)


if __name__ == "__main__":
    main()
