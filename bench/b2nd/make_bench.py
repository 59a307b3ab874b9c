#!/usr/bin/env python3
"""Write the .b2nd files for the Blosc2 chunk-decode benchmark.

Usage: make_bench.py OUTDIR [--mb N]

One file per codec (shuffle filter) and per filter pipeline (zstd codec),
each ~N MB decoded (default 96), clevel 5, default chunk and block shapes,
written with one thread. The data is a smooth float32 field (a temperature
like surface with a little noise), plus one int32 case. Existing files are
kept, so the script is cheap to rerun.
"""
import argparse
import os
import sys

import numpy as np
import blosc2

F = blosc2.Filter
C = blosc2.Codec

# name -> (dtype, codec, filters list, filters_meta list)
CASES = {
    "blosclz_shuffle":    ("f4", C.BLOSCLZ, [F.SHUFFLE], [0]),
    "lz4_shuffle":        ("f4", C.LZ4, [F.SHUFFLE], [0]),
    "lz4hc_shuffle":      ("f4", C.LZ4HC, [F.SHUFFLE], [0]),
    "zlib_shuffle":       ("f4", C.ZLIB, [F.SHUFFLE], [0]),
    "zstd_shuffle":       ("f4", C.ZSTD, [F.SHUFFLE], [0]),
    "zstd_bitshuffle":    ("f4", C.ZSTD, [F.BITSHUFFLE], [0]),
    "zstd_bytedelta":     ("f4", C.ZSTD, [F.SHUFFLE, F.BYTEDELTA], [0, 0]),
    "zstd_delta_shuffle": ("f4", C.ZSTD, [F.DELTA, F.SHUFFLE], [0, 0]),
    "zstd_nofilter":      ("f4", C.ZSTD, [F.NOFILTER], [0]),
    "lz4_bitshuffle":     ("f4", C.LZ4, [F.BITSHUFFLE], [0]),
    "blosclz_nofilter":   ("f4", C.BLOSCLZ, [F.NOFILTER], [0]),
    "lz4_shuffle_i32":    ("i4", C.LZ4, [F.SHUFFLE], [0]),
    "zstd_shuffle_i32":   ("i4", C.ZSTD, [F.SHUFFLE], [0]),
}


def field(shape, dtype, seed=7):
    """A smooth 3-d field (time, lat, lon): seasonal and spatial waves plus
    small noise, like a temperature grid in kelvin (or centikelvin as int32)."""
    rng = np.random.default_rng(seed)
    t = np.arange(shape[0], dtype=np.float32)[:, None, None]
    y = np.linspace(-1.5, 1.5, shape[1], dtype=np.float32)[None, :, None]
    x = np.linspace(0, 2 * np.pi, shape[2], dtype=np.float32)[None, None, :]
    a = (273.15 + 30 * np.cos(y) - 10
         + 8 * np.sin(x + 0.05 * t) * np.cos(2 * y)
         + 5 * np.sin(2 * np.pi * t / 365.0))
    a = a + rng.normal(0, 0.05, size=shape).astype(np.float32)
    if dtype == "i4":
        return np.round(a * 100).astype(np.int32)
    return a.astype(np.float32)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--mb", type=int, default=96, help="decoded MB per file")
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    blosc2.set_nthreads(1)
    nlat, nlon = 360, 720
    nt = max(1, args.mb * 1_000_000 // (4 * nlat * nlon))
    shape = (nt, nlat, nlon)
    data = {}
    for name, (dt, codec, filters, meta) in CASES.items():
        path = os.path.join(args.outdir, name + ".b2nd")
        if os.path.exists(path):
            continue
        if dt not in data:
            data[dt] = field(shape, dt)
        cparams = blosc2.CParams(codec=codec, clevel=5, filters=filters,
                                 filters_meta=meta, nthreads=1)
        blosc2.asarray(data[dt], urlpath=path, mode="w", cparams=cparams)
        arr = blosc2.open(path)
        print(f"{name}: shape {arr.shape} chunks {arr.chunks} blocks {arr.blocks} "
              f"nbytes {arr.schunk.nbytes} cbytes {arr.schunk.cbytes} "
              f"ratio {arr.schunk.nbytes / arr.schunk.cbytes:.2f}", file=sys.stderr)


if __name__ == "__main__":
    main()
