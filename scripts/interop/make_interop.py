#!/usr/bin/env python3
"""Write the tet-py interoperability fixtures into testdata/interop/.

Usage (from the repository root):
    pip install tet-py==0.8.3      # also needs numpy (pulled in) and the zstd CLI
    python3 scripts/interop/make_interop.py [--out testdata/interop]

Every file gets a `<file>.expected.json` sidecar (schema in
testdata/interop/README.md). After writing, each file is
  1. parsed byte by byte with tetlib.parse_tet (spec conformance),
  2. decoded independently from the raw bytes and compared with the source
     arrays, and
  3. read back through tet-py by check_reads.check_file (round trip).
Any disagreement aborts the run. Timestamps ("at", "created_at") come from
the writer, so regenerated files differ from the committed ones only there
and in the blobs that hash them.

Python is only an interoperability harness; it is not part of the Go build.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

os.environ.setdefault("RAYON_NUM_THREADS", "1")  # tet-py's Rust pool: keep it small

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import check_reads  # noqa: E402
import tetlib  # noqa: E402

import tet  # noqa: E402

TET_PY_VERSION = "0.8.3"
REPO = Path(__file__).resolve().parents[2]


@dataclass
class Spec:
    """One dataset as we intend it to be stored."""

    name: str
    array: np.ndarray
    chunk_shape: tuple[int, ...]
    dim_names: list[str] | None = None
    coords: dict[str, list[str]] = field(default_factory=dict)
    attrs: dict[str, str] = field(default_factory=dict)


def bits(dtype: str, *patterns: int) -> np.ndarray:
    """Array of floats built from exact IEEE bit patterns (no rounding)."""
    return np.array(patterns, dtype=tetlib.BITS_VIEW[dtype]).view(tetlib.DTYPES[tetlib.TAG_BY_NAME[dtype]][2])


# --------------------------------------------------------------------------
# dataset definitions


def dtypes_specs() -> list[Spec]:
    """One [3,5] dataset per dtype, chunk [2,2]: edge chunks on both axes.

    Names vary in length and group depth so the directory padding takes
    several values; each float dataset has one NaN in an interior chunk.
    """
    ints = {
        "u8": ("u8", "u1", [0, 1, 2, 127, 128, 254, 255, 3, 4, 5, 6, 7, 8, 9, 10]),
        "i16": ("int/i16", "<i2", [-32768, -32767, -1, 0, 1, 32766, 32767, 255, 256, -256, 2, 3, 4, 5, 6]),
        "u16": ("uint/u16", "<u2", [0, 1, 255, 256, 32767, 32768, 65534, 65535, 2, 3, 4, 5, 6, 7, 8]),
        "i32": ("int/i32", "<i4", [-(2**31), -(2**31) + 1, -1, 0, 1, 2**31 - 2, 2**31 - 1,
                                   16777217, -16777217, 65536, 2, 3, 4, 5, 6]),
        "u32": ("uint/u32", "<u4", [0, 1, 2**32 - 1, 2**32 - 2, 2**31, 2**31 - 1, 16777217, 65536,
                                    2, 3, 4, 5, 6, 7, 8]),
        "i64": ("int/i64", "<i8", [-(2**63), -(2**63) + 1, -1, 0, 1, 2**63 - 2, 2**63 - 1,
                                   2**53 + 1, -(2**53) - 1, 2**32, 2, 3, 4, 5, 6]),
        "u64": ("uint/u64", "<u8", [0, 1, 2**64 - 1, 2**64 - 2, 2**63, 2**63 - 1, 2**53 + 1, 2**32,
                                    2, 3, 4, 5, 6, 7, 8]),
    }
    specs = [Spec(name, np.array(vals, dtype=np_dt).reshape(3, 5), (2, 2)) for name, np_dt, vals in ints.values()]
    floats = {
        # 0, -0, 1, -1, max, -max, min normal, min subnormal, max subnormal,
        # -min subnormal, +inf, -inf, NaN, 0.1, 1+ulp
        "f16": ("float/f16", [0x0000, 0x8000, 0x3C00, 0xBC00, 0x7BFF, 0xFBFF, 0x0400, 0x0001,
                              0x03FF, 0x8001, 0x7C00, 0xFC00, 0x7E00, 0x2E66, 0x3C01]),
        "f32": ("float/f32", [0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x7F7FFFFF, 0xFF7FFFFF,
                              0x00800000, 0x00000001, 0x007FFFFF, 0x80000001, 0x7F800000, 0xFF800000,
                              0x7FC00000, 0x3DCCCCCD, 0x3F800001]),
        "f64": ("float/f64", [0x0, 0x8000000000000000, 0x3FF0000000000000, 0xBFF0000000000000,
                              0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF, 0x0010000000000000, 0x1,
                              0x000FFFFFFFFFFFFF, 0x8000000000000001, 0x7FF0000000000000,
                              0xFFF0000000000000, 0x7FF8000000000000, 0x3FB999999999999A,
                              0x3FF0000000000001]),
    }
    specs += [Spec(name, bits(dt, *pats).reshape(3, 5), (2, 2)) for dt, (name, pats) in floats.items()]
    return specs


def special_float_specs() -> list[Spec]:
    """NaN payloads and other specials, [5,4] chunked [2,4] (splits only axis 0).

    That layout is one contiguous span per chunk row, which tet-py returns
    zero-copy, so tet-py can confirm even NaN payload bits here.
    """
    f16 = [0x7E00, 0xFE00, 0x7E01, 0x7D00, 0x7C01, 0x7FFF, 0xFFFF, 0x7C00, 0xFC00, 0x0000,
           0x8000, 0x0001, 0x8001, 0x03FF, 0x83FF, 0x0400, 0x7BFF, 0x3555, 0x3BFF, 0xC000]
    f32 = [0x7FC00000, 0xFFC00000, 0x7FC00001, 0x7FA00000, 0x7F800001, 0x7FFFFFFF, 0xFFFFFFFF,
           0x7F800000, 0xFF800000, 0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF,
           0x807FFFFF, 0x00800000, 0x7F7FFFFF, 0x3EAAAAAB, 0x3F7FFFFF, 0xC0000000]
    f64 = [0x7FF8000000000000, 0xFFF8000000000000, 0x7FF8000000000001, 0x7FF4000000000000,
           0x7FF0000000000001, 0x7FFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF, 0x7FF0000000000000,
           0xFFF0000000000000, 0x0, 0x8000000000000000, 0x1, 0x8000000000000001,
           0x000FFFFFFFFFFFFF, 0x800FFFFFFFFFFFFF, 0x0010000000000000, 0x7FEFFFFFFFFFFFFF,
           0x3FD5555555555555, 0x3FEFFFFFFFFFFFFF, 0xC000000000000000]
    return [
        Spec("special/f16", bits("f16", *f16).reshape(5, 4), (2, 4)),
        Spec("special/f32", bits("f32", *f32).reshape(5, 4), (2, 4)),
        Spec("special/f64", bits("f64", *f64).reshape(5, 4), (2, 4)),
    ]


def edge_chunk_specs() -> list[Spec]:
    """Ranks 1..4 and 8 with edge chunks on every axis; distinct values everywhere.

    The u8 dataset comes first so every later payload starts at an odd offset.
    """
    def ar(shape: tuple[int, ...], dt: str, scale: float = 1, offset: float = 0) -> np.ndarray:
        return (np.arange(int(np.prod(shape))) * scale + offset).astype(dt).reshape(shape)

    return [
        Spec("r1/u8", ar((7,), "u1", 1, 1), (3,)),  # chunks of 3,3,1
        Spec("r2/i32", ar((5, 7), "<i4", 1, -17), (2, 3)),
        Spec("r3/f64", ar((3, 4, 5), "<f8", 0.5, -7.25), (2, 3, 2)),
        Spec("r4/u16", ar((3, 3, 3, 3), "<u2", 3, 100), (2, 2, 2, 2)),
        Spec("r2/chunk_gt_shape", ar((2, 3), "<f4", 1.5, 0), (4, 8)),  # one trimmed chunk
        Spec("r3/unit_chunks", ar((2, 3, 2), "<i2", -1, 5), (1, 1, 1)),
        Spec("r8/f32", ar((2, 1, 2, 1, 2, 1, 1, 3), "<f4", 0.25, 1), (1, 1, 2, 1, 1, 1, 1, 2)),
        Spec("r1/single", ar((1,), "<i8", 1, -(2**40)), (1,)),
    ]


def metadata_specs() -> list[Spec]:
    """dim_names, coordinate labels, attrs, '/' and non-ASCII names."""
    temp = np.array([[271.5, 272.25, -9999.0], [273.0, 274.5, 275.75]], dtype="<f4")
    return [
        Spec("climate/temperature", temp, (1, 2),
             dim_names=["time", "station"],
             coords={"time": ["2024-01-01", "2024-01-02"], "station": ["A", "B", "Zürich"]},
             attrs={"units": "K", "long_name": "surface temperature", "_FillValue": "-9999",
                    "missing_value": "-9998", "scale_factor": "0.01", "space": " ", "nul": "a\u0000b",
                    "comment": 'quote " backslash \\ newline \n tab \t degree ° check ✓'}),
        Spec("climate/pressure", np.array([1013.25, 850.0, 500.5], dtype="<f8"), (2,),
             dim_names=["level"], attrs={"units": "hPa"}),  # dim_names without coords
        Spec("grid/mask", np.array([[0, 1], [1, 0]], dtype="u1"), (2, 2),  # a boolean as u8
             dim_names=["y", "x"], coords={"x": ["west", "east"]},  # labels on one axis only
             attrs={"flag_values": "0 1", "flag_meanings": "water land"}),
        Spec("flat", np.array([10, -20, 30, -40], dtype="<i4"), (3,)),  # no metadata at all
        Spec("names/ünïcødé ✓", np.array([1, -2, 3], dtype="<i2"), (2,),
             dim_names=["k"], coords={"k": ["α", "β", "γ"]}, attrs={"note": "non-ASCII name"}),
    ]


def spill_specs() -> list[Spec]:
    """Metadata larger than tet-py's 64 KiB footer JSON limit, forcing a metadata_ref spill.

    tet-py caps one attr string at 1024 bytes and a dataset at 64 attrs, so
    64 attrs of 1024 bytes (value i: "NN-" then "abcdefghij" repeated, cut to
    1024 bytes) is about the smallest metadata that spills.
    """
    attrs = {f"blob_{i:02d}": (f"{i:02d}-" + "abcdefghij" * 103)[:1024] for i in range(64)}
    return [
        Spec("wide/attrs", np.array([1.5, -2.5, 3.5, -4.5], dtype="<f4"), (3,),
             dim_names=["i"], coords={"i": ["a", "b", "c", "d"]}, attrs=attrs),
    ]


def zstd_specs() -> list[Spec]:
    """Datasets for the hand-built zstd file (tet-py has no way to write zstd)."""
    i64 = np.array([-(2**63), 2**63 - 1, -1, 0, 1, 2**53 + 1, -(2**53) - 1] + list(range(28)), dtype="<i8").reshape(5, 7)
    f32 = np.linspace(-3, 3, 24, dtype="<f4").reshape(2, 3, 4)
    f32[0, 0, 1] = -0.0
    f32[0, 2, 3] = np.inf
    f32[1, 1, 0] = bits("f32", 0x00000001)[0]
    f32[1, 2, 2] = np.nan
    return [
        Spec("zstd/i64", i64, (2, 3), dim_names=["row", "col"],
             coords={"row": ["r0", "r1", "r2", "r3", "r4"]}, attrs={"codec_note": "every chunk zstd"}),
        Spec("zstd/f32", f32, (1, 2, 3)),
        Spec("mixed/u16", (np.arange(20, dtype="<u2") * 3001).reshape(4, 5), (3, 2)),
        Spec("raw/u8", np.array([7, 8, 9], dtype="u1"), (2,)),
        Spec("zstd/f16", bits("f16", 0x0001, 0x03FF, 0x8000, 0x7BFF, 0x3C00, 0xFC00), (4,)),
        Spec("zstd/u64", np.array([2**64 - 1, 2**63, 0], dtype="<u8"), (1,)),
    ]


# --------------------------------------------------------------------------
# writers


def write_with_tet_py(path: Path, specs: list[Spec], history: list[tuple[str, str]]) -> None:
    """Write through tet-py's TetWriter (the reference writer under test)."""
    w = tet.TetWriter.create(path.name)  # relative: the auto history source is the bare name
    for op, source in history:
        w.push_history_event(op, source)
    for s in specs:
        w.write_dataset(
            s.name, s.array, chunk_shape=s.chunk_shape,
            attrs=s.attrs or None, dim_names=s.dim_names, coords=s.coords or None,
        )
    w.commit()


def clear_zone_index(path: Path) -> None:
    """tet's `index --clear` job step: drops the v2 zone/index blobs, leaving a v1 footer."""
    job = path.with_suffix(".job.toml")
    job.write_text(f'schema_version = 1\n[[step]]\nop = "index"\npath = "{path.name}"\nclear = true\n')
    try:
        report = tet.run_job(job)
    finally:
        job.unlink()
    if report["steps"][0]["status"] != "ok":
        raise RuntimeError(f"index --clear failed: {report}")


ZSTD_HISTORY: list[Any] = [
    {"op": "convert", "source": "era5.nc", "at": "1732100000", "parents": ["raw/a.nc", "raw/b.nc"],
     "params": {"jobs": "4", "chunk_mib": "64"}},
    ["legacy-op", "old.tet", "1600000000"],  # old 3-element array form
    {"op": "repack", "source": "make_interop.py", "at": "1732100001"},
]
ZSTD_BUDGET = (2500, 268435456)  # 25 % of host RAM, 256 MiB cap


def write_zstd_handmade(path: Path, specs: list[Spec]) -> None:
    """Spec-literal writer: zstd chunks (frames with and without content size), one
    dataset mixing raw and zstd, non-zero budget fields, footer_version 1."""
    def codec_for(ds_id: int, coords: tuple[int, ...], raw: bytes) -> tuple[int, bytes]:
        name = specs[ds_id].name
        k = sum(coords)
        if name.startswith("raw/") or (name.startswith("mixed/") and k % 2 == 0):
            return 0, raw
        return 1, tetlib.zstd_compress(raw, level=(1, 3, 19)[k % 3], content_size=(k % 2 == 1))

    meta_ds = {}
    for s in specs:
        m: dict[str, Any] = {}
        if s.dim_names:
            m["dim_names"] = s.dim_names
        if s.coords:
            m["coords"] = {k: {"labels": v} for k, v in s.coords.items()}
        if s.attrs:
            m["attrs"] = s.attrs
        if m:
            meta_ds[s.name] = m
    footer = {
        "history": ZSTD_HISTORY,
        "metadata": {
            "file": {"tool": "make_interop.py", "library_version": "handmade", "created_at": "1732100001"},
            "datasets": meta_ds,
        },
    }
    tetlib.write_tet(
        path,
        [tetlib.HandDataset(s.name, s.array, s.chunk_shape) for s in specs],
        codec_for=codec_for, footer=footer, budget_bps=ZSTD_BUDGET[0], budget_bytes=ZSTD_BUDGET[1],
    )


# --------------------------------------------------------------------------
# sidecar


def build_sidecar(path: Path, specs: list[Spec], writer: str, exercises: str) -> dict[str, Any]:
    """Expected-values JSON: source arrays + layout facts parsed from the bytes
    + history / file metadata as tet-py reports them."""
    p = tetlib.parse_tet(path)
    summary = tet.open(path.resolve()).summary()
    meta = summary.get("metadata") or {}
    datasets = []
    for ds_id, s in enumerate(specs):
        dt = tetlib.dtype_name(s.array)
        rec = p.records[ds_id]
        assert rec.name == s.name and rec.shape == list(s.array.shape), (rec, s.name)
        chunks = [
            {"index": e.chunk_index[: rec.ndim], "codec": tetlib.CODEC_NAMES[e.codec],
             "raw_byte_len": e.raw_byte_len, "stored_byte_len": e.stored_byte_len,
             "payload_offset": e.payload_offset}
            for e in p.entries if e.dataset_id == ds_id
        ]
        codecs = {c["codec"] for c in chunks}
        dims = s.dim_names
        entry: dict[str, Any] = {
            "name": s.name,
            "dtype": dt,
            "dtype_tag": tetlib.TAG_BY_NAME[dt],
            "shape": list(s.array.shape),
            "chunk_shape": list(s.chunk_shape),
            "dim_names": dims,
            "coords": s.coords,
            "labels": [s.coords.get(dims[d]) if dims and d < len(dims) else None for d in range(s.array.ndim)],
            "attrs": s.attrs,
            "codec": codecs.pop() if len(codecs) == 1 else "mixed",
            "chunks": chunks,
        }
        if len(json.dumps(s.attrs)) > tetlib.ATTRS_INLINE_MAX:
            del entry["attrs"]  # spill-sized: record a digest instead (see README)
            entry["attrs_digest"] = tetlib.attrs_digest(s.attrs)
        entry.update(tetlib.encode_values(s.array, dt))
        datasets.append(entry)
    return {
        "schema": "tetsql-interop-expected/1",
        "file": path.name,
        "writer": writer,
        "exercises": exercises,
        "file_size": p.size,
        "superblock": {
            "layout_version": p.layout_version, "dataset_count": p.dataset_count, "flags": p.flags,
            "chunk_index_offset": p.chunk_index_offset, "chunk_index_length": p.chunk_index_length,
        },
        "footer": None if not p.flags & 1 else {"version": p.footer_version, "keys": sorted(p.footer or {})},
        "memory_budget_percent_bps": p.budget_bps,
        "memory_budget_bytes": p.budget_bytes,
        "history": summary.get("history") or [],
        "file_metadata": meta.get("file"),
        "datasets": datasets,
    }


def dumps_compact(obj: Any, indent: str = "") -> str:
    """Readable but small JSON: big objects one key per line, lists of objects one
    object per line, everything else (scalar lists, short objects) on one line."""
    inner = indent + " "
    flat = json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))
    if isinstance(obj, dict) and obj and len(flat) > 120:
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {dumps_compact(v, inner)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(obj, list) and obj and all(isinstance(x, dict) for x in obj):
        return "[\n" + ",\n".join(inner + dumps_compact(x, inner) for x in obj) + "\n" + indent + "]"
    return flat


def verify(path: Path, specs: list[Spec], sidecar: dict[str, Any]) -> None:
    """Abort unless the raw bytes and tet-py both agree with the source arrays."""
    raw = tetlib.read_chunks(path)
    for s in specs:
        got = raw[s.name]
        if got.tobytes() != np.ascontiguousarray(s.array).astype(got.dtype).tobytes():
            raise SystemExit(f"{path.name}: raw decode of {s.name} differs from the source array")
    errs, warns = check_reads.check_file(path, sidecar)
    for w in warns:
        print(f"    warning: {w}")
    if errs:
        raise SystemExit(f"{path.name}: tet-py round trip failed:\n  " + "\n  ".join(errs))


# --------------------------------------------------------------------------


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=REPO / "testdata" / "interop")
    args = ap.parse_args()
    if tet.__version__ != TET_PY_VERSION:
        print(f"warning: tet-py {tet.__version__} installed, fixtures were designed for {TET_PY_VERSION}")
    if shutil.which("zstd") is None:
        raise SystemExit("the zstd CLI is required (apt-get install zstd)")
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    os.chdir(out)  # tet-py records relative source names in history
    writer = f"tet-py {tet.__version__} TetWriter"

    # (file name, specs, how it is made, history events, what it exercises)
    plan = [
        ("dtypes.tet", dtypes_specs(), "tet-py+clear", [("make_interop", "dtypes"), ("annotate", "extremes ✓")],
         "all 10 dtypes in one file; integer extremes (u64 max, i64 min, 2^53+1); f16/f32/f64 "
         "specials (-0.0, subnormals, max, ±Inf, NaN); [3,5] chunked [2,2] → edge chunks on both axes; "
         "'/' names; unaligned payloads; two history events"),
        ("special_floats.tet", special_float_specs(), "tet-py+clear", [("make_interop", "special floats")],
         "NaN payloads (quiet, signaling, negative, max payload), ±Inf, ±0, subnormals for f16/f32/f64; "
         "[5,4] chunked [2,4] (edge chunk on axis 0) so tet-py reads it zero-copy and confirms NaN bits"),
        ("edge_chunks.tet", edge_chunk_specs(), "tet-py+clear", [],
         "ranks 1,2,3,4,8 with edge chunks on every axis, chunk_shape larger than shape, unit chunks, "
         "a single-element dataset; u8 first so later payloads start at odd offsets; no history pushed "
         "(tet-py adds its own 'write' row)"),
        ("metadata.tet", metadata_specs(), "tet-py",
         [("convert", "station_obs.csv"), ("annotate", "Zürich ✓"), ("publish", "s3://bucket/x")],
         "dim_names, coordinate labels (all axes / one axis / none), attrs incl. CF keys, space/NUL/escaped "
         "strings, non-ASCII dataset name and labels, bool-as-u8, three history rows"),
        ("metadata_v1.tet", metadata_specs(), "tet-py+clear",
         [("convert", "station_obs.csv"), ("annotate", "Zürich ✓"), ("publish", "s3://bucket/x")],
         "same content as metadata.tet after tet's `index --clear` job step: footer_version 1 with "
         "only history+metadata, exactly the layout the spec describes"),
        ("spill.tet", spill_specs(), "tet-py", [("make_interop", "spill")],
         "metadata_ref spill: 64 attrs × 1024 B push the footer JSON past 64 KiB, so tet-py stores "
         "the metadata JSON as its own blob before the footer JSON"),
        ("zstd_handmade.tet", zstd_specs(), "handmade", None,
         "NOT written by tet-py (it cannot write zstd): built by tetlib.write_tet per spec and read back "
         "by tet-py. zstd chunks (levels 1/3/19, frames with and without content size), a dataset "
         "mixing raw and zstd chunks, non-zero memory budget fields, footer_version 1 with history "
         "rows using parents/params and the legacy [op, source, at] array form"),
    ]

    total = 0
    pad_residues: set[int] = set()
    for name, specs, how, history, exercises in plan:
        path = out / name
        path.unlink(missing_ok=True)
        if how == "handmade":
            write_zstd_handmade(path, specs)
            who = f"scripts/interop/tetlib.write_tet (handmade, spec-literal); read-checked with tet-py {tet.__version__}"
        else:
            write_with_tet_py(path, specs, history)
            who = writer
            if how == "tet-py+clear":
                clear_zone_index(path)
                who = writer + ", then tet-py run_job `index --clear`"
        sidecar = build_sidecar(path, specs, who, exercises)
        if name == "spill.tet" and "metadata_ref" not in sidecar["footer"]["keys"]:
            raise SystemExit("spill.tet: tet-py kept the metadata inline; make the attrs larger")
        verify(path, specs, sidecar)
        side = out / (name + ".expected.json")
        side.write_text(dumps_compact(sidecar) + "\n", encoding="utf-8")
        p = tetlib.parse_tet(path)
        pad_residues |= {r.pad for r in p.records}
        size = path.stat().st_size + side.stat().st_size
        total += size
        print(f"  {name:20s} {path.stat().st_size:7d} B  footer v{p.footer_version}  "
              f"{len(specs)} datasets  (+ sidecar {side.stat().st_size} B)")
    missing = set(range(8)) - pad_residues
    if missing:
        print(f"  note: name padding lengths {sorted(missing)} not exercised")
    print(f"total {total} bytes in {out}")


if __name__ == "__main__":
    main()
