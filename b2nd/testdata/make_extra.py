#!/usr/bin/env python3
"""Write extra Blosc2 NDim files, with random geometry, and their expected.json.

The committed fixtures (make.py) are small and hand-picked; these are
drawn from a seed: larger arrays of ranks 1 to 4, every codec under several
filter pipelines, sparse frames, big-endian and one-byte dtypes, and a
partial last chunk on every axis of every file (blocks that do not divide
their chunks, too). The records use make.py's format, so the same checks
read them.

    python make_extra.py --out DIR [--seed N]

Needs python-blosc2 4.x and numpy. make.py must sit next to this script:
its writer and recorder are reused (they read --out and --seed too).
"""
import argparse
import json
import os
import sys

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--out", required=True)
ap.add_argument("--seed", type=int, default=11)
args = ap.parse_args()

# make.py parses its arguments when imported: hand it ours.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.argv = [sys.argv[0], "--out", args.out, "--seed", str(args.seed)]
import make as base  # noqa: E402

np, blosc2 = base.np, base.blosc2
C, F = blosc2.Codec, blosc2.Filter
rng = np.random.default_rng(args.seed + 1000)


# ------------------------------------------------------------ geometry

def geometry(rank, elems, full=False):
    """A chunk and block shape and a shape of up to about elems elements
    (about elems when full), with a partial last chunk on every axis and
    blocks that often pad their chunk."""
    side = max(3, int(round((elems ** (1.0 / rank)))))
    chunks, blocks, shape = [], [], []
    for _ in range(rank):
        c = int(rng.integers(max(2, side // 8) if full else 2, max(3, side // 2) + 1))
        b = int(rng.integers(1, c + 1))
        k = max(1, side // c)
        k = k if full else int(rng.integers(1, k + 1))
        shape.append(c * k + int(rng.integers(1, c)))  # never a multiple of c
        chunks.append(c)
        blocks.append(b)
    return tuple(shape), tuple(chunks), tuple(blocks)


# ------------------------------------------------------------ data

def values(shape, dtype, smooth=True):
    """Random values of dtype: a random walk (compressible) or noise, with
    the type's extremes somewhere for integers and a few NaNs for floats."""
    dt = np.dtype(dtype)
    n = int(np.prod(shape))
    if dt.kind == "b":
        return (rng.random(n) < 0.3).reshape(shape).astype(dt)
    if dt.kind == "f":
        if smooth:
            v = np.cumsum(rng.normal(0.0, 1.0, n)) * 0.25
        else:
            v = rng.normal(0.0, 1000.0, n)
        v = v.astype(dt)
        if n > 4:
            v[rng.integers(0, n, size=max(1, n // 997))] = np.nan
        return v.reshape(shape)
    info = np.iinfo(dt)
    if smooth:
        # A walk in int64, wrapped into the type (astype wraps integers).
        v = np.cumsum(rng.integers(-40, 41, size=n, dtype=np.int64)).astype(dt)
    else:
        v = rng.integers(info.min, info.max, size=n, dtype=dt.newbyteorder("="), endpoint=True).astype(dt)
    if n >= 2:
        v[rng.integers(0, n)], v[rng.integers(0, n)] = info.max, info.min
    return v.reshape(shape)


def corners_and_random(shape, k=6):
    """Probe cells: make.py adds the corners and the middle; add k random ones."""
    return [tuple(int(rng.integers(0, s)) for s in shape) for _ in range(k)]


PIPELINES = {
    "nofilter": ([], None),
    "shuffle": ([F.SHUFFLE], None),
    "bitshuffle": ([F.BITSHUFFLE], None),
    "delta_shuffle": ([F.DELTA, F.SHUFFLE], None),
    "shuffle_bytedelta": ([F.SHUFFLE, F.BYTEDELTA], "typesize"),
}
CODECS = [C.BLOSCLZ, C.LZ4, C.LZ4HC, C.ZLIB, C.ZSTD]
DTYPES = ["<f2", "<f4", "<f8", "|i1", "<i2", "<i4", "<i8", "|u1", "<u2", "<u4", "<u8", "|b1",
          ">u2", ">i8", ">f4", ">u8"]


def cp(codec, pipeline, dtype, clevel=None, dict_=False):
    filters, meta = PIPELINES[pipeline]
    m = None
    if meta == "typesize":
        m = [0, np.dtype(dtype).itemsize]
    return base.cparams(codec=codec, clevel=int(clevel or rng.integers(1, 10)), filters=filters,
                        meta=m, dict_=dict_)


def write(name, group, note, draw, sparse=False, tries=8):
    """make.py's write on what draw() returns (src, chunks, blocks, cparams),
    drawing again when python-blosc2 cannot read its own file back: with
    4.14 that happens now and then for dictionaries (small blocks fail to
    read, or misread with lz4) and, rarely, for the delta filter. Only files
    that read back equal to their source are recorded."""
    for _ in range(tries):
        src, chunks, blocks, cparams = draw()
        try:
            base.write(name, group, note, src, chunks, blocks, cparams,
                       probes=corners_and_random(src.shape), sparse=sparse)
            return
        except (AssertionError, RuntimeError) as e:
            print(f"  ({name}: chunks {chunks} blocks {blocks} do not read back in python-blosc2 "
                  f"{blosc2.__version__}: {e!r}; drawing again)")
    raise SystemExit(f"{name}: no file read back in {tries} draws")


def drawn(rank, elems, dt, codec, pipeline, full=False, smooth=True, dict_=False):
    """A draw function for write: new geometry and values each call."""
    def draw():
        shape, chunks, blocks = geometry(rank() if callable(rank) else rank, elems, full=full)
        sm = smooth() if callable(smooth) else smooth
        return values(shape, dt, smooth=sm), chunks, blocks, cp(codec, pipeline, dt, dict_=dict_)
    return draw


def main():
    os.makedirs(args.out, exist_ok=True)
    any_rank = lambda: int(rng.integers(1, 5))  # noqa: E731

    # Larger arrays, one per rank, a few MB in all.
    for rank, dt, codec in [(1, "<f8", C.ZSTD), (2, "<i4", C.LZ4), (3, "<u8", C.BLOSCLZ), (4, ">f4", C.ZLIB)]:
        write(f"x_big_rank{rank}", "big", f"random geometry, {dt}, {codec.name}",
              drawn(rank, 250_000, dt, codec, "shuffle", full=True))

    # Every codec under every pipeline, random rank, dtype and geometry.
    for codec in CODECS:
        for pipeline in PIPELINES:
            dt = DTYPES[int(rng.integers(0, len(DTYPES)))]
            write(f"x_{codec.name.lower()}_{pipeline}", "codec", f"{dt}, random rank",
                  drawn(any_rank, 6000, dt, codec, pipeline, smooth=lambda: bool(rng.integers(0, 2))))

    # Trained dictionaries (zstd and lz4).
    for codec in [C.ZSTD, C.LZ4]:
        write(f"x_dict_{codec.name.lower()}", "layout", "trained dictionary",
              drawn(2, 40_000, "<f8", codec, "shuffle", dict_=True))

    # Odd dtypes: big-endian and one-byte, full-range noise (u8 sums pass 2^64).
    for dt in [">u2", ">i8", "|i1", ">u8", ">f2", "|b1", "<u8"]:
        name = np.dtype(dt).str.replace(">", "be_").replace("<", "le_").replace("|", "")
        write(f"x_dtype_{name}", "dtype", f"{dt}, noise", drawn(any_rank, 3000, dt, C.ZSTD, "shuffle", smooth=False))

    # Sparse frames, big-endian among them.
    for i, dt in enumerate(["<i4", ">f8", "<u2"]):
        write(f"x_sparse_{i}", "sparse", f"contiguous=False, {dt}",
              drawn(2 + i % 2, 5000, dt, CODECS[i], "shuffle"), sparse=True)

    # 0-d arrays: one element, no axes.
    for i, (dt, v) in enumerate([(">u8", 2**64 - 1), ("<f2", -0.0009765625), ("|i1", -128)]):
        base.write(f"x_rank0_{i}", "rank", f"0-d {dt}", np.array(v, dtype=dt), (), (),
                   base.cparams(codec=CODECS[i]), sparse=i == 1)

    # Lossy trunc_prec: the expected values are what the file holds.
    for dt, bits in [("<f4", int(rng.integers(4, 20))), ("<f8", int(rng.integers(8, 45)))]:
        shape, chunks, blocks = geometry(int(rng.integers(1, 4)), 5000)
        base.write(f"x_trunc_prec_{np.dtype(dt).name}", "filter", f"trunc_prec({bits}) + shuffle, lossy",
                   values(shape, dt), chunks, blocks,
                   base.cparams(filters=[F.TRUNC_PREC, F.SHUFFLE], meta=[bits, 0]),
                   probes=corners_and_random(shape), lossy=True)

    # NaN chunks of a big-endian dtype: C-Blosc2 writes the NaN in the
    # machine's order, so python-blosc2 reads back tiny subnormals. The
    # expected values are what it reads back; the Go reader must agree.
    for i, dt in enumerate([">f4", ">f8"]):
        shape, chunks, blocks = geometry(int(rng.integers(1, 4)), 2000)
        base.constructed(f"x_nans_be_{i}", "special", f"blosc2.nans({dt}): machine-order NaN bytes",
                         lambda p, c, shape=shape, chunks=chunks, blocks=blocks, dt=dt: blosc2.nans(
                             shape, dtype=dt, chunks=chunks, blocks=blocks, urlpath=p, contiguous=c, mode="w"),
                         None, probes=corners_and_random(shape), sparse=i == 1)

    # Run-of-one-value chunks (blosc2.full) in either byte order, contiguous
    # and sparse.
    for i, (dt, v) in enumerate([(">f2", -2.5), (">u8", 2**63 + 5), ("<i8", -(2**62) - 3), ("|b1", True),
                                 ("<f4", 0.1)]):
        shape, chunks, blocks = geometry(int(rng.integers(1, 5)), 2000)
        want = np.full(shape, v, dt)
        base.constructed(f"x_full_{i}", "special", f"blosc2.full({v!r}, {dt})",
                         lambda p, c, shape=shape, chunks=chunks, blocks=blocks, dt=dt, v=v: blosc2.full(
                             shape, v, dtype=dt, chunks=chunks, blocks=blocks, urlpath=p, contiguous=c, mode="w"),
                         want, probes=corners_and_random(shape), sparse=i % 2 == 1)

    # Special and regular chunks mixed, contiguous and sparse.
    for sparse in (False, True):
        shape, chunks, blocks = geometry(3, 4000)
        dt = ">i2" if sparse else "<f4"
        want = np.zeros(shape, dt)
        part = tuple(slice(0, min(s, c + 1)) for s, c in zip(shape, chunks))  # spills into a 2nd chunk
        want[part] = values(want[part].shape, dt)
        last = tuple(s - 1 for s in shape)
        want[last] = 7

        def make_it(p, contiguous, shape=shape, chunks=chunks, blocks=blocks, dt=dt, part=part, want=want,
                    last=last):
            a = blosc2.zeros(shape, dtype=dt, chunks=chunks, blocks=blocks, urlpath=p,
                             contiguous=contiguous, mode="w")
            a[part] = np.ascontiguousarray(want[part])
            a[last] = want[last]
        base.constructed(f"x_special_{'sparse' if sparse else 'contiguous'}", "special",
                         "zeros, then a block spilling across chunks and the last cell", make_it, want,
                         probes=corners_and_random(shape), sparse=sparse)

    doc = {
        "generator": "make_extra.py",
        "seed": args.seed,
        "python_blosc2": blosc2.__version__,
        "c_blosc2": blosc2.VERSION_STRING,
        "numpy": np.__version__,
        "files": base.files,
    }
    with open(os.path.join(args.out, "expected.json"), "w") as f:
        json.dump(doc, f, indent=1)
    print(f"{len(base.files)} files in {args.out}")


if __name__ == "__main__":
    main()
