#!/usr/bin/env python3
"""Write the ERA5-like cube of bench/b2nd/agg.sh as Blosc2 NDim (.b2nd) files.

    python3 bench/b2nd/make_cube.py OUTDIR [--seed S] [--small]

The cube is t(time, lat, lon), f32, 730 x 181 x 360, in kelvin: a latitude
gradient (300 K at the equator, 250 K at the poles), a seasonal cycle that
grows towards the poles and is opposite in the two hemispheres, a zonal
wave, and Gaussian noise (sd 2 K), rounded to 1/1024 K so that every value
is exact in f32 (the field of bench/anbench gen, with numpy's noise). The
same seed always gives the same values.

Files written (dim_names ["time", "lat", "lon"] in vlmeta, blocks left to
blosc2's defaults):

    zstd.b2nd    chunks (30, 181, 360), zstd clevel 5 + shuffle (the common setting)
    lz4.b2nd     chunks (30, 181, 360), lz4 clevel 5 + shuffle
    small.b2nd   chunks (10, 46, 90), zstd clevel 5 + shuffle (with --small)

Needs python-blosc2 (4.x) and numpy. Only the benchmark uses it; no test does.
"""
import argparse
import json
import os
import sys

import numpy as np

import blosc2

SHAPE = (730, 181, 360)
BIG = (30, 181, 360)
SMALL = (10, 46, 90)


def cube(seed):
    """The values, f32, row-major (time, lat, lon)."""
    nt, ny, nx = SHAPE
    rng = np.random.default_rng(seed)
    t = np.arange(nt, dtype=np.float64)
    lat = 90 - np.arange(ny, dtype=np.float64) * (180 / (ny - 1))
    lon = np.arange(nx, dtype=np.float64) * (360 / nx)
    phi = np.radians(lat)
    s = np.sin(phi)
    season = -np.cos(2 * np.pi * (t - 15) / 365.25)
    base = 300 - 50 * (s * s)[None, :] + 15 * s[None, :] * season[:, None]  # (time, lat)
    wave = 3 * np.sin(2 * np.pi * lon / 120)[None, :] * np.cos(phi)[:, None]  # (lat, lon)
    out = np.empty(SHAPE, dtype=np.float32)
    for i in range(nt):  # a day at a time: 0.5 MB of f64 noise instead of 380 MB
        v = base[i][:, None] + wave + 2 * rng.standard_normal((ny, nx))
        out[i] = np.round(v * 1024) / 1024
    return out


def write(path, values, chunks, codec):
    cp = blosc2.CParams(codec=codec, clevel=5, filters=[blosc2.Filter.SHUFFLE])
    arr = blosc2.asarray(values, chunks=chunks, urlpath=path, mode="w", contiguous=True, cparams=cp)
    arr.schunk.vlmeta["dim_names"] = ["time", "lat", "lon"]
    back = blosc2.open(path)
    if not np.array_equal(back[...], values):
        sys.exit(f"{path}: values read back differ")
    return {"file": os.path.basename(path), "chunks": list(back.chunks), "blocks": list(back.blocks),
            "codec": codec.name, "clevel": 5, "filters": "shuffle", "bytes": os.path.getsize(path)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("outdir")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--small", action="store_true", help="also write small.b2nd, chunks (10, 46, 90)")
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    values = cube(a.seed)
    files = [
        write(os.path.join(a.outdir, "zstd.b2nd"), values, BIG, blosc2.Codec.ZSTD),
        write(os.path.join(a.outdir, "lz4.b2nd"), values, BIG, blosc2.Codec.LZ4),
    ]
    if a.small:
        files.append(write(os.path.join(a.outdir, "small.b2nd"), values, SMALL, blosc2.Codec.ZSTD))
    info = {"blosc2": blosc2.__version__, "numpy": np.__version__, "seed": a.seed,
            "shape": list(SHAPE), "dtype": "float32", "files": files}
    with open(os.path.join(a.outdir, "cube.json"), "w") as fh:
        json.dump(info, fh, indent=1)
    for f in files:
        print(f"{f['file']}: chunks {f['chunks']} blocks {f['blocks']} {f['codec']} clevel 5 + shuffle, {f['bytes']:,} bytes")


if __name__ == "__main__":
    main()
