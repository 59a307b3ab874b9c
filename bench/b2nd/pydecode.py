#!/usr/bin/env python3
"""Time the C library (python-blosc2) decoding every chunk of .b2nd files
on one thread, for comparison with bench/b2nd/gobench.

Usage: pydecode.py [--reps N] DIR CASE ...

For each CASE it loads DIR/CASE.b2nd into memory as an SChunk
(schunk_from_cframe, so no file I/O is timed), runs one unmeasured pass,
then decompresses every chunk N times into one preallocated NumPy buffer
of chunksize bytes (SChunk.decompress_chunk, the schunk's own context,
nthreads=1) and prints per pass a tab-separated

    c  CASE  PASS  MB_PER_CPU_S  MB_PER_WALL_S

where MB is 10^6 decoded bytes and CPU seconds are the thread's
(time.thread_time, CLOCK_THREAD_CPUTIME_ID, as gobench). Like gobench it skips special chunks
(none in the files make_bench.py writes) and checks each pass's output.
"""
import argparse
import hashlib
import os
import sys
import time

import numpy as np
import blosc2


def run(path, name, reps):
    blosc2.set_nthreads(1)
    with open(path, "rb") as fh:
        data = fh.read()
    s = blosc2.schunk_from_cframe(data, copy=True)
    s.dparams = blosc2.DParams(nthreads=1)
    buf = np.empty(s.chunksize, dtype=np.uint8)
    idx = []
    sums = []
    for i in range(s.nchunks):
        hdr = s.get_chunk(i)[:32]
        # Special chunks (zeros, NaN, uninit, value) are flagged in byte 31.
        if len(hdr) == 32 and (hdr[31] >> 4) & 7:
            continue
        s.decompress_chunk(i, buf)
        idx.append(i)
        sums.append(hashlib.sha256(buf).digest())
    total = len(idx) * s.chunksize
    for p in range(reps):
        t, c = time.perf_counter(), time.thread_time()
        for i in idx:
            s.decompress_chunk(i, buf)
        el, cpu = time.perf_counter() - t, time.thread_time() - c
        for k, i in enumerate(idx):
            s.decompress_chunk(i, buf)
            if hashlib.sha256(buf).digest() != sums[k]:
                sys.exit(f"{path}: chunk {i} decodes differently on pass {p}")
        print(f"c\t{name}\t{p}\t{total / cpu / 1e6:.1f}\t{total / el / 1e6:.1f}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("dir")
    ap.add_argument("cases", nargs="+")
    a = ap.parse_args()
    for name in a.cases:
        run(os.path.join(a.dir, name + ".b2nd"), name, a.reps)


if __name__ == "__main__":
    main()
