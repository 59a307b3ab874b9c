#!/usr/bin/env python3
"""Write the .tgm files for the Tensogram decode benchmark.

Usage: make_bench.py OUTDIR [--messages N] [--force]

One file per decode pipeline, each N messages (default 24) of one global
field on a 0.25-degree grid (721 x 1440, like a surface temperature from a
weather model: smooth large-scale structure plus small noise, held at the
precision a 16-bit GRIB field decodes to), every message a new forecast
step. Lossless pipelines store float32 (~100 MB decoded per file at 24
messages), simple_packing stores float64 (~200 MB). Files are written by
the tensogram package with its defaults (xxh3 hashes, header index and
hash frames, zstd level 3, blosc2 clevel 5). Existing files are kept (use
--force to rewrite), so the script is cheap to rerun.
"""
import argparse
import os
import sys

import numpy as np
import tensogram as tg

NY, NX = 721, 1440

# name -> (dtype, descriptor keys, NaN land mask)
CASES = {
    "none_f32":        ("float32", {}, False),
    "zstd_f32":        ("float32", {"compression": "zstd"}, False),
    "lz4_f32":         ("float32", {"compression": "lz4"}, False),
    "shuffle_zstd_f32": ("float32", {"filter": "shuffle", "shuffle_element_size": 4, "compression": "zstd"}, False),
    "zstd_f64":        ("float64", {"compression": "zstd"}, False),
    "sp16":            ("float64", {"encoding": "simple_packing", "sp_bits_per_value": 16}, False),
    "sp16_zstd":       ("float64", {"encoding": "simple_packing", "sp_bits_per_value": 16, "compression": "zstd"}, False),
    "sp24":            ("float64", {"encoding": "simple_packing", "sp_bits_per_value": 24}, False),
    "sp24_zstd":       ("float64", {"encoding": "simple_packing", "sp_bits_per_value": 24, "compression": "zstd"}, False),
    "blosc2_lz4_f32":  ("float32", {"compression": "blosc2", "blosc2_codec": "lz4"}, False),
    "blosc2_zstd_f32": ("float32", {"compression": "blosc2", "blosc2_codec": "zstd"}, False),
    "nanmask_zstd_f32": ("float32", {"compression": "zstd"}, True),
}


def field(step, rng):
    """A 2-m temperature like field in kelvin for forecast step `step`
    (hours): latitude profile, travelling waves, a diurnal term and small
    noise, rounded to 2^-9 K (a 16-bit GRIB field's precision)."""
    lat = np.deg2rad(np.linspace(90, -90, NY))[:, None]
    lon = np.deg2rad(np.linspace(0, 360, NX, endpoint=False))[None, :]
    t = step / 24.0
    a = (250 + 45 * np.cos(lat) ** 2
         + 6 * np.sin(3 * lon + 0.4 * t) * np.cos(2 * lat)
         + 3 * np.sin(7 * lon - 1.1 * t + 4 * lat)
         + 4 * np.cos(lon + 2 * np.pi * t) * np.cos(lat))
    a = a + rng.normal(0, 0.3, size=a.shape)
    return np.round(a * 512) / 512


def land(shape):
    """A fixed land mask (about a third of the grid) of smooth blobs, for
    a sea-surface field whose land points are NaN."""
    lat = np.linspace(-1, 1, shape[0])[:, None]
    lon = np.linspace(0, 2 * np.pi, shape[1], endpoint=False)[None, :]
    s = np.sin(2 * lon) * np.cos(3 * lat) + 0.6 * np.sin(5 * lon + 2 * lat) * np.cos(lat * 4)
    return s > 0.35


def write(path, dtype, keys, nanmask, messages, seed):
    rng = np.random.default_rng(seed)
    mask = land((NY, NX)) if nanmask else None
    with open(path + ".part", "wb") as fh:
        for k in range(messages):
            a = field(6 * k, rng).astype(dtype)
            if mask is not None:
                a[mask] = np.nan
            d = {"type": "ntensor", "shape": [NY, NX], "dtype": dtype, **keys}
            meta = {"base": [{"name": "2t", "mars": {"param": "2t", "step": 6 * k, "levtype": "sfc",
                                                      "date": "20261125", "time": "0000"}}]}
            fh.write(tg.encode(meta, [(d, a)], allow_nan=nanmask))
    os.replace(path + ".part", path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--messages", type=int, default=24)
    ap.add_argument("--force", action="store_true")
    ap.add_argument("cases", nargs="*", help="cases to write (default all)")
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    for i, (name, (dtype, keys, nanmask)) in enumerate(CASES.items()):
        if a.cases and name not in a.cases:
            continue
        path = os.path.join(a.outdir, name + ".tgm")
        if os.path.exists(path) and not a.force:
            continue
        write(path, dtype, keys, nanmask, a.messages, 1000 + i)
        print(f"{path}: {os.path.getsize(path) / 1e6:.1f} MB", file=sys.stderr)


if __name__ == "__main__":
    main()
