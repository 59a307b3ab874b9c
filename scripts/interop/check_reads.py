#!/usr/bin/env python3
"""Check .tet files against `<file>.expected.json` sidecars, reading with tet-py.

Usage:
    python3 scripts/interop/check_reads.py FILE.tet [FILE2.tet ...]
    python3 scripts/interop/check_reads.py FILE.tet:EXPECTED.json ...

Without ":EXPECTED.json" the sidecar is FILE.tet.expected.json. Every value is
compared bit-exactly (floats by IEEE bit pattern, integers exactly), plus the
catalog (names in order, dtype, shape, chunk_shape), footer metadata
(dim_names, coords, attrs, file metadata, history) and the chunk table.

Optional sidecar keys are checked only when present, so a sidecar written by a
Go test may omit what it cannot predict (e.g. history "at", payload offsets):
  superblock, footer, memory_budget_percent_bps, memory_budget_bytes, history,
  file_metadata; per dataset: dim_names, coords, labels, attrs (or
  attrs_digest for huge maps, see tetlib.attrs_digest), codec, chunks
  (and within a chunk row only the keys it has).

Exit status: 0 all files match, 1 a mismatch, 2 bad usage / unreadable input.

tet-py 0.8.3 limitation handled here: its copy path (zstd chunks, or a
selection not one contiguous row-major span) uses NaN as an "unset" sentinel
and fails on any NaN with "materialized selection has unset elements". For
such datasets values are re-read one element at a time; NaN elements are
confirmed with an any_nan query, but their payload bits cannot be seen
through tet-py and are reported as a warning, not an error.

Also: tet-py 0.8.3 cannot read_numpy a dataset with a zero-length axis
("selection does not form a valid global box"); such a dataset has no values
to compare, so this is a warning and only its catalog and chunk table are
checked.
"""

from __future__ import annotations

import json
import os
import struct
import sys
from pathlib import Path
from typing import Any

import numpy as np

# keep tet-py's Rust thread pool small on a shared machine (read before import)
os.environ.setdefault("RAYON_NUM_THREADS", "1")

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import tetlib  # noqa: E402

try:
    import tet
except ImportError:  # pragma: no cover - environment problem
    sys.exit("check_reads.py needs tet-py: pip install tet-py==0.8.3")

MAX_DIFFS = 10  # mismatching elements shown per dataset
MAX_ELEMENTWISE = 50_000  # cap for the NaN fallback (one query per element)


def _selection(index: tuple[int, ...]) -> list[dict[str, int]]:
    return [{"start": int(i), "stop": int(i) + 1} for i in index]


def _fmt(v: np.generic, dt: str) -> str:
    if dt in tetlib.FLOAT_DTYPES:
        bits = np.array([v], dtype=v.dtype.newbyteorder("<")).view(tetlib.BITS_VIEW[dt])[0]
        return f"{v!s} ({int(bits):#0{2 + 2 * v.dtype.itemsize}x})"
    return str(int(v))


def _read_dataset(f: Any, name: str, expected: np.ndarray, dt: str, errs: list[str], warns: list[str]) -> np.ndarray | None:
    """Read one dataset through tet-py; fall back per element on NaN sentinel failures."""
    try:
        return np.asarray(f.read_numpy(name))
    except tet.TetError as exc:
        if expected.size == 0 and "valid global box" in str(exc):
            # tet-py 0.8.3 cannot materialize a zero-length axis (its
            # selection box needs start < stop). Nothing to compare; the
            # catalog and the (empty) chunk table are still checked.
            warns.append(f"{name}: tet-py cannot read a dataset with a zero-length axis; values not read (none expected)")
            return np.empty(expected.shape, dtype=expected.dtype)
        if "unset elements" not in str(exc) or dt not in tetlib.FLOAT_DTYPES:
            errs.append(f"{name}: tet-py read_numpy failed: {exc}")
            return None
    except BaseException as exc:  # native panic (pyo3 PanicException)
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        errs.append(f"{name}: tet-py read_numpy panicked: {exc}")
        return None
    if expected.size > MAX_ELEMENTWISE:
        errs.append(f"{name}: tet-py cannot read NaN via its copy path and the dataset is too large for per-element reads")
        return None
    out = np.empty(expected.shape, dtype=expected.dtype)
    unverified = 0
    for idx in np.ndindex(*expected.shape):
        try:
            out[idx] = np.asarray(f.read_numpy(name, _selection(idx))).reshape(())
            continue
        except tet.TetError as exc:
            if "unset elements" not in str(exc):
                errs.append(f"{name}{list(idx)}: tet-py read failed: {exc}")
                return None
        # Confirm the NaN with any_nan (tet-py 0.8.3's nan_count wrongly
        # returns 0 for f16/f64). BaseException: native panics surface as
        # pyo3 PanicException, which is not an Exception subclass.
        try:
            doc = {"dataset": name, "selection": _selection(idx), "any_nan": []}
            is_nan = f.query(doc, raw=False).scalar
        except BaseException as exc:  # noqa: BLE001
            errs.append(f"{name}{list(idx)}: element unreadable and any_nan failed: {exc}")
            return None
        if is_nan is not True:
            errs.append(f"{name}{list(idx)}: element unreadable and any_nan={is_nan}")
            return None
        unverified += 1
        # tet-py confirmed a NaN; take the expected NaN if one is expected,
        # else a quiet NaN so the comparison reports the mismatch.
        out[idx] = expected[idx] if np.isnan(expected[idx]) else np.nan
    warns.append(
        f"{name}: tet-py copy path cannot return NaN; read per element, "
        f"{unverified} NaN position(s) confirmed by any_nan, payload bits not verifiable via tet-py"
    )
    return out


def _compare_values(name: str, got: np.ndarray, expected: np.ndarray, dt: str, errs: list[str]) -> None:
    want_dt = np.dtype(tetlib.DTYPES[tetlib.TAG_BY_NAME[dt]][2])
    if got.dtype.newbyteorder("<") != want_dt.newbyteorder("<") or got.dtype.kind != want_dt.kind:
        errs.append(f"{name}: tet-py returned numpy dtype {got.dtype}, expected {want_dt}")
        return
    if got.shape != expected.shape:
        errs.append(f"{name}: tet-py returned shape {got.shape}, expected {expected.shape}")
        return
    g = np.ascontiguousarray(got.astype(want_dt)).reshape(-1)
    e = np.ascontiguousarray(expected).reshape(-1)
    view = tetlib.BITS_VIEW.get(dt, want_dt.str)
    diff = np.nonzero(g.view(view) != e.view(view))[0]
    for k in diff[:MAX_DIFFS]:
        idx = np.unravel_index(k, expected.shape)
        errs.append(f"{name}{[int(i) for i in idx]}: got {_fmt(g[k], dt)}, expected {_fmt(e[k], dt)}")
    if len(diff) > MAX_DIFFS:
        errs.append(f"{name}: ... {len(diff) - MAX_DIFFS} more differing elements")


def _cmp(label: str, got: Any, want: Any, errs: list[str]) -> None:
    if got == want:
        return
    if isinstance(got, dict) and isinstance(want, dict):  # name only the differing keys
        for k in sorted(set(got) | set(want)):
            if got.get(k, "<absent>") != want.get(k, "<absent>"):
                _cmp(f"{label}[{k!r}]", got.get(k, "<absent>"), want.get(k, "<absent>"), errs)
        return
    errs.append(f"{label}: got {json.dumps(got, ensure_ascii=False)}, expected {json.dumps(want, ensure_ascii=False)}")


def _footer_tail(path: Path) -> tuple[int | None, list[str] | None]:
    """(footer_version, sorted footer JSON keys) from the raw tail, or (None, None).

    tet-py does not expose the footer version, so this one check reads bytes.
    """
    b = path.read_bytes()
    if len(b) < 48 or not struct.unpack_from("<I", b, 12)[0] & 1:
        return None, None
    jl, ver, magic = struct.unpack_from("<QI4s", b, len(b) - 16)
    if magic != b"THST" or jl > len(b) - 16:
        return None, None
    try:
        keys = sorted(json.loads(b[len(b) - 16 - jl : len(b) - 16]))
    except ValueError:
        keys = None
    return ver, keys


def check_file(path: str | Path, sidecar: dict[str, Any]) -> tuple[list[str], list[str]]:
    """Compare one file with its sidecar through tet-py. Returns (errors, warnings)."""
    path = Path(path).resolve()  # tet-py queries need an absolute path
    errs: list[str] = []
    warns: list[str] = []
    try:
        f = tet.open(path)
        summary = f.summary()
    except Exception as exc:  # noqa: BLE001 - report whatever tet-py raised
        return [f"tet-py cannot open the file: {type(exc).__name__}: {exc}"], warns

    # ---- file level
    if "superblock" in sidecar:
        for key, want in sidecar["superblock"].items():
            _cmp(f"superblock.{key}", summary["superblock"].get(key), want, errs)
    if "footer" in sidecar:
        ver, keys = _footer_tail(path)
        want = sidecar["footer"]
        if want is None:
            if ver is not None:
                errs.append(f"footer: expected none, found version {ver}")
        else:
            if "version" in want:
                _cmp("footer.version", ver, want["version"], errs)
            if "keys" in want:
                _cmp("footer.keys", keys, sorted(want["keys"]), errs)
    fe = summary.get("file_execution", {})
    for key in ("memory_budget_percent_bps", "memory_budget_bytes"):
        if key in sidecar:
            _cmp(key, fe.get(key), sidecar[key], errs)
    if "history" in sidecar:
        got_h = summary.get("history") or []
        want_h = sidecar["history"]
        if len(got_h) != len(want_h):
            errs.append(f"history: {len(got_h)} rows, expected {len(want_h)}: {got_h}")
        else:
            for i, (g, w) in enumerate(zip(got_h, want_h)):
                for key, val in w.items():  # only keys the sidecar names
                    _cmp(f"history[{i}].{key}", g.get(key), val, errs)
    meta = summary.get("metadata") or {}
    if "file_metadata" in sidecar:
        _cmp("file_metadata", meta.get("file"), sidecar["file_metadata"], errs)

    # ---- catalog
    got_ds = summary["datasets"]
    want_ds = sidecar["datasets"]
    _cmp("dataset names", [d["name"] for d in got_ds], [d["name"] for d in want_ds], errs)
    by_name = {d["name"]: (i, d) for i, d in enumerate(got_ds)}
    ds_meta = meta.get("datasets") or {}
    for want in want_ds:
        name = want["name"]
        if name not in by_name:
            continue
        ds_id, got = by_name[name]
        dt = want["dtype"]
        _cmp(f"{name}: dtype tag", got["dtype"], tetlib.TAG_BY_NAME[dt], errs)
        _cmp(f"{name}: shape", got["shape"], want["shape"], errs)
        if "chunk_shape" in want:
            _cmp(f"{name}: chunk_shape", got["chunk_shape"], want["chunk_shape"], errs)

        # footer metadata of this dataset
        m = ds_meta.get(name) or {}
        got_coords = {k: v.get("labels") for k, v in (m.get("coords") or {}).items()}
        if "dim_names" in want:
            _cmp(f"{name}: dim_names", m.get("dim_names"), want["dim_names"], errs)
        if "coords" in want:
            _cmp(f"{name}: coords", got_coords, want["coords"], errs)
        if "labels" in want:
            dims = m.get("dim_names") or []
            got_labels = [got_coords.get(dims[d]) if d < len(dims) else None for d in range(len(got["shape"]))]
            _cmp(f"{name}: labels", got_labels, want["labels"], errs)
        if "attrs" in want:
            _cmp(f"{name}: attrs", m.get("attrs") or {}, want["attrs"], errs)
        if "attrs_digest" in want:
            _cmp(f"{name}: attrs_digest", tetlib.attrs_digest(m.get("attrs") or {}), want["attrs_digest"], errs)

        # chunk table (layout-independent unless the sidecar names offsets)
        chunks = [c for c in summary["chunks"] if c["dataset_id"] == ds_id]
        ndim = len(got["shape"])
        if "codec" in want:
            codecs = {tetlib.CODEC_NAMES.get(c["codec"], str(c["codec"])) for c in chunks}
            _cmp(f"{name}: codec", codecs.pop() if len(codecs) == 1 else "mixed", want["codec"], errs)
        if "chunks" in want:
            got_c = {tuple(c["chunk_index"][:ndim]): c for c in chunks}
            want_c = {tuple(c["index"]): c for c in want["chunks"]}
            _cmp(f"{name}: chunk coordinates", sorted(got_c), sorted(want_c), errs)
            for key, wc in want_c.items():
                gc = got_c.get(key)
                if gc is None:
                    continue
                for field in ("raw_byte_len", "stored_byte_len", "payload_offset"):
                    if field in wc:
                        _cmp(f"{name}: chunk {list(key)} {field}", gc[field], wc[field], errs)
                if "codec" in wc:
                    _cmp(f"{name}: chunk {list(key)} codec", tetlib.CODEC_NAMES.get(gc["codec"]), wc["codec"], errs)

        # values
        expected = tetlib.decode_expected(want)
        got_arr = _read_dataset(f, name, expected, dt, errs, warns)
        if got_arr is not None:
            _compare_values(name, got_arr, expected, dt, errs)
    return errs, warns


def _parse_args(argv: list[str]) -> list[tuple[Path, Path]]:
    pairs = []
    for arg in argv:
        if ":" in arg and arg.rsplit(":", 1)[1].endswith(".json"):
            tet_path, side = arg.rsplit(":", 1)
        else:
            tet_path, side = arg, arg + ".expected.json"
        pairs.append((Path(tet_path), Path(side)))
    return pairs


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 2 if not argv else 0
    failed = 0
    for tet_path, side in _parse_args(argv):
        try:
            sidecar = json.loads(side.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            print(f"ERROR {tet_path}: cannot load sidecar {side}: {exc}")
            return 2
        if not tet_path.is_file():
            print(f"ERROR {tet_path}: no such file")
            return 2
        errs, warns = check_file(tet_path, sidecar)
        for w in warns:
            print(f"  warning {tet_path.name}: {w}")
        if errs:
            failed += 1
            print(f"FAIL {tet_path} ({len(errs)} problem(s)):")
            for e in errs:
                print(f"  - {e}")
        else:
            n = sum(len(d["values"]) for d in sidecar["datasets"])
            print(f"OK   {tet_path} ({len(sidecar['datasets'])} datasets, {n} values, tet-py {tet.__version__})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
