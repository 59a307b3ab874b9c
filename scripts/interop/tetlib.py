"""Shared helpers for the tet-py interoperability scripts.

Python is used here only to cross-check tetsql against the reference
implementation (tet-py); nothing in this folder is part of the Go build.

Contents:
  * DTYPES / dtype helpers (wire tags of /work/shared/spec/tet-format-v1.md §3)
  * parse_tet(): an independent, spec-driven parser of the raw bytes, used to
    confirm that tet-py's output follows the spec and to dump the layout
  * write_tet(): a minimal spec writer, used only to build files tet-py itself
    cannot write (zstd chunks, budget fields, full history rows)
  * value encoding for the `<file>.expected.json` sidecars
"""

from __future__ import annotations

import hashlib
import json
import shutil
import struct
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

# --------------------------------------------------------------------------
# dtypes

# wire tag -> (name, byte size, little-endian numpy dtype)
DTYPES: dict[int, tuple[str, int, str]] = {
    1: ("f32", 4, "<f4"),
    2: ("f64", 8, "<f8"),
    3: ("i32", 4, "<i4"),
    4: ("i64", 8, "<i8"),
    5: ("u8", 1, "|u1"),
    6: ("u16", 2, "<u2"),
    7: ("i16", 2, "<i2"),
    8: ("u32", 4, "<u4"),
    9: ("f16", 2, "<f2"),
    10: ("u64", 8, "<u8"),
}
TAG_BY_NAME = {name: tag for tag, (name, _, _) in DTYPES.items()}
FLOAT_DTYPES = {"f16", "f32", "f64"}
# unsigned integer view used to take the IEEE bit pattern of a float dtype
BITS_VIEW = {"f16": "<u2", "f32": "<u4", "f64": "<u8"}

CODEC_NAMES = {0: "raw", 1: "zstd"}


def dtype_name(arr: np.ndarray) -> str:
    """Spec dtype string ("f32", "u64", ...) of a numpy array."""
    key = (arr.dtype.kind, arr.dtype.itemsize)
    for name, size, np_dt in DTYPES.values():
        if (np.dtype(np_dt).kind, size) == key:
            return name
    raise ValueError(f"no .tet dtype for numpy dtype {arr.dtype}")


def align8(n: int) -> int:
    return (n + 7) & ~7


# --------------------------------------------------------------------------
# value encoding for sidecars


def encode_values(arr: np.ndarray, dt: str) -> dict[str, list[str]]:
    """Row-major values as strings; floats also get their IEEE bit pattern.

    * integers: decimal strings (u64 / i64 extremes do not fit JSON doubles)
    * floats: "values" is a readable shortest round-trip string for that width
      ("nan", "inf", "-inf", "-0.0", "6e-08"); "bits" is the exact bit pattern
      as 0x-prefixed lower-case hex of the dtype width ("0x3c00" for f16 1.0).
    """
    flat = np.ascontiguousarray(arr).reshape(-1)
    if dt in FLOAT_DTYPES:
        bits = flat.astype(flat.dtype.newbyteorder("<")).view(BITS_VIEW[dt])
        width = np.dtype(BITS_VIEW[dt]).itemsize * 2
        out_bits = [f"0x{int(b):0{width}x}" for b in bits]
        out_vals = []
        for x in flat:
            if np.isnan(x):
                out_vals.append("nan")
            elif np.isinf(x):
                out_vals.append("inf" if x > 0 else "-inf")
            else:
                out_vals.append(str(x))  # numpy: shortest repr for this width
        return {"values": out_vals, "bits": out_bits}
    return {"values": [str(int(x)) for x in flat]}


def decode_expected(ds: dict[str, Any]) -> np.ndarray:
    """Rebuild the exact expected array (bit-exact) from a sidecar dataset."""
    dt = ds["dtype"]
    np_dt = DTYPES[TAG_BY_NAME[dt]][2]
    shape = tuple(ds["shape"])
    if dt in FLOAT_DTYPES:
        bits = np.array([int(b, 16) for b in ds["bits"]], dtype=BITS_VIEW[dt])
        return bits.view(np_dt).reshape(shape)
    return np.array([int(v) for v in ds["values"]], dtype=np_dt).reshape(shape)


ATTRS_INLINE_MAX = 8192  # bigger attrs are recorded as a digest to keep sidecars small


def attrs_digest(attrs: dict[str, str]) -> dict[str, Any]:
    """Compact stand-in for a huge attrs map in a sidecar.

    sha256 over, for each key in ascending UTF-8 byte order:
    key bytes, 0x00, value bytes, 0x00 (all UTF-8).
    """
    h = hashlib.sha256()
    for k in sorted(attrs, key=lambda x: x.encode("utf-8")):
        h.update(k.encode("utf-8") + b"\0" + attrs[k].encode("utf-8") + b"\0")
    return {"count": len(attrs), "sha256": h.hexdigest(),
            "value_bytes": sum(len(v.encode("utf-8")) for v in attrs.values())}


# --------------------------------------------------------------------------
# spec parser


class SpecError(Exception):
    """The bytes violate /work/shared/spec/tet-format-v1.md."""


@dataclass
class Record:
    offset: int
    name: str
    dtype: int
    ndim: int
    reserved: int
    pad: int
    shape: list[int]
    chunk_shape: list[int]


@dataclass
class Entry:
    offset: int
    dataset_id: int
    chunk_index: list[int]
    payload_offset: int
    raw_byte_len: int
    stored_byte_len: int
    codec: int
    reserved: int


@dataclass
class Parsed:
    size: int
    magic: bytes
    layout_version: int
    dataset_count: int
    flags: int
    chunk_index_offset: int
    chunk_index_length: int
    dataset_blob_len: int = 0
    records: list[Record] = field(default_factory=list)
    dir_padding: bytes = b""
    index_magic: bytes = b""
    index_version: int = 0
    entry_count: int = 0
    budget_bps: int = 0
    budget_bytes: int = 0
    index_reserved: tuple[int, int] = (0, 0)
    entries: list[Entry] = field(default_factory=list)
    payload_region: tuple[int, int] = (0, 0)  # [start, end) of all payloads
    payload_gaps: list[tuple[int, int]] = field(default_factory=list)
    footer_version: int | None = None
    footer_json_offset: int | None = None
    footer_json_len: int | None = None
    footer: dict[str, Any] | None = None
    footer_error: str | None = None
    metadata: dict[str, Any] | None = None  # inline or spilled
    blobs: list[tuple[str, int, int]] = field(default_factory=list)  # (key, off, len)
    notes: list[str] = field(default_factory=list)  # non-fatal observations


def parse_tet(path: str | Path) -> Parsed:
    """Parse a .tet file strictly per spec; raise SpecError on violations.

    Observations that the spec does not cover (e.g. footer_version 2 and its
    extra blob references) are recorded in Parsed.notes instead of failing.
    """
    b = Path(path).read_bytes()
    if len(b) < 32:
        raise SpecError("file shorter than the 32-byte superblock")
    magic, lv, count, flags, cio, cil = struct.unpack_from("<4sIIIQQ", b, 0)
    p = Parsed(len(b), magic, lv, count, flags, cio, cil)
    if magic != b"TETR" or lv != 1:
        raise SpecError(f"bad superblock magic/version {magic!r} {lv}")
    if flags & ~1:
        raise SpecError(f"unknown superblock flag bits {flags:#x}")

    # footer first: it bounds the payload region
    payload_end = len(b)
    if flags & 1:
        if len(b) < 16:
            raise SpecError("footer flag set but file too short for a tail")
        jl, fver, fmagic = struct.unpack_from("<QI4s", b, len(b) - 16)
        if fmagic != b"THST":
            p.footer_error = f"bad footer magic {fmagic!r}"
        elif jl > len(b) - 16 - 32:
            p.footer_error = f"footer json_len {jl} too large"
        else:
            p.footer_version = fver
            p.footer_json_len = jl
            p.footer_json_offset = len(b) - 16 - jl
            payload_end = p.footer_json_offset
            if fver != 1:
                p.notes.append(f"footer_version is {fver} (spec says it must be 1)")
            try:
                p.footer = json.loads(b[p.footer_json_offset : len(b) - 16].decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                p.footer_error = f"footer JSON invalid: {exc}"
        if p.footer is not None:
            p.metadata = p.footer.get("metadata")
            if "metadata" in p.footer and "metadata_ref" in p.footer:
                raise SpecError("footer has both metadata and metadata_ref")
            for key, val in p.footer.items():
                if key.endswith("_ref") and isinstance(val, dict):
                    off, ln = int(val["offset"]), int(val["len"])
                    if off + ln > p.footer_json_offset:
                        raise SpecError(f"{key} [{off},{off + ln}) overlaps footer JSON")
                    p.blobs.append((key, off, ln))
                    payload_end = min(payload_end, off)
                    if key not in ("metadata_ref",):
                        p.notes.append(f"footer key {key!r} is not in the spec")
            ref = p.footer.get("metadata_ref")
            if ref:
                off, ln = int(ref["offset"]), int(ref["len"])
                if off + ln != p.footer_json_offset:
                    p.notes.append("metadata spill does not end right before the footer JSON")
                p.metadata = json.loads(b[off : off + ln].decode("utf-8"))
            for key in p.footer:
                if key not in ("history", "metadata", "metadata_ref", "zone_maps_ref", "secondary_index_ref"):
                    p.notes.append(f"unknown footer key {key!r}")

    if count == 0:
        if cio != 32 or cil != 0:
            raise SpecError("empty container must have chunk_index_offset 32, length 0")
        return p

    # dataset directory
    (p.dataset_blob_len,) = struct.unpack_from("<Q", b, 32)
    off = 40
    end = 40 + p.dataset_blob_len
    for _ in range(count):
        rec_start = off
        name_len, dt, ndim, res = struct.unpack_from("<IIII", b, off)
        if dt not in DTYPES:
            raise SpecError(f"unknown dtype tag {dt}")
        if not 1 <= ndim <= 8:
            raise SpecError(f"ndim {ndim} out of range")
        name = b[off + 16 : off + 16 + name_len].decode("utf-8")
        pad = align8(16 + name_len) - (16 + name_len)
        padb = b[off + 16 + name_len : off + 16 + name_len + pad]
        if padb.strip(b"\0"):
            raise SpecError(f"non-zero name padding in record {name!r}")
        off += 16 + name_len + pad
        shape = list(struct.unpack_from(f"<{ndim}Q", b, off))
        chunk = list(struct.unpack_from(f"<{ndim}Q", b, off + 8 * ndim))
        off += 16 * ndim
        if min(chunk) < 1:
            raise SpecError(f"chunk extent 0 in {name!r}")
        p.records.append(Record(rec_start, name, dt, ndim, res, pad, shape, chunk))
    if off != end:
        raise SpecError(f"records end at {off}, dataset_blob_len says {end}")
    if cio != align8(end):
        raise SpecError(f"chunk_index_offset {cio} != align8({end})")
    p.dir_padding = b[end:cio]
    if p.dir_padding.strip(b"\0"):
        raise SpecError("non-zero directory padding")

    # chunk index
    (p.index_magic, p.index_version, p.entry_count, p.budget_bps, r1, p.budget_bytes, r2) = struct.unpack_from(
        "<4sIQHHIQ", b, cio
    )
    p.index_reserved = (r1, r2)
    if p.index_magic != b"TIDX" or p.index_version != 1:
        raise SpecError("bad chunk index header")
    if cil != 32 + p.entry_count * 104:
        raise SpecError("chunk_index_length mismatch")
    if cio + cil > len(b):
        raise SpecError("chunk index past end of file")
    seen = set()
    for i in range(p.entry_count):
        eo = cio + 32 + 104 * i
        vals = struct.unpack_from("<9QQQQII", b, eo)
        e = Entry(eo, vals[0], list(vals[1:9]), vals[9], vals[10], vals[11], vals[12], vals[13])
        if e.dataset_id >= count:
            raise SpecError(f"entry {i}: dataset_id out of range")
        rec = p.records[e.dataset_id]
        grid = [-(-s // c) for s, c in zip(rec.shape, rec.chunk_shape)]
        if any(e.chunk_index[d] >= grid[d] for d in range(rec.ndim)) or any(e.chunk_index[rec.ndim :]):
            raise SpecError(f"entry {i}: chunk coordinates outside grid")
        key = (e.dataset_id, tuple(e.chunk_index))
        if key in seen:
            raise SpecError(f"entry {i}: duplicate chunk")
        seen.add(key)
        n = 1
        for d in range(rec.ndim):
            c = e.chunk_index[d]
            n *= min((c + 1) * rec.chunk_shape[d], rec.shape[d]) - c * rec.chunk_shape[d]
        if e.raw_byte_len != n * DTYPES[rec.dtype][1]:
            raise SpecError(f"entry {i}: raw_byte_len {e.raw_byte_len} != {n} elements")
        if e.codec not in CODEC_NAMES:
            raise SpecError(f"entry {i}: unknown codec {e.codec}")
        if e.codec == 0 and e.raw_byte_len != e.stored_byte_len:
            raise SpecError(f"entry {i}: raw codec with stored != raw")
        if e.payload_offset + e.stored_byte_len > payload_end:
            raise SpecError(f"entry {i}: payload past the payload region")
        p.entries.append(e)

    # entry order: the reference emits dataset order, then row-major grid order
    keys = [(e.dataset_id, e.chunk_index) for e in p.entries]
    if keys != sorted(keys):
        p.notes.append("index entries are not in dataset / row-major order")

    # payload order / contiguity observations
    spans = sorted((e.payload_offset, e.payload_offset + e.stored_byte_len) for e in p.entries)
    if spans:
        p.payload_region = (spans[0][0], spans[-1][1])
        if spans[0][0] != cio + cil:
            p.notes.append(f"first payload at {spans[0][0]}, index ends at {cio + cil}")
        for (a0, a1), (b0, _b1) in zip(spans, spans[1:]):
            if b0 != a1:
                p.payload_gaps.append((a1, b0))
        in_order = [e.payload_offset for e in p.entries] == [s[0] for s in spans]
        if not in_order:
            p.notes.append("payloads are not in index order")
        if payload_end != p.payload_region[1]:
            p.notes.append(f"bytes [{p.payload_region[1]},{payload_end}) between last payload and footer blobs")
    return p


def zstd_decompress(data: bytes) -> bytes:
    """Decode one zstd frame with the zstd CLI (Python 3.11 has no zstd)."""
    return subprocess.run(["zstd", "-q", "-d", "-c"], input=data, capture_output=True, check=True).stdout


def read_chunks(path: str | Path, p: Parsed | None = None) -> dict[str, np.ndarray]:
    """Assemble every dataset from raw bytes (independent of tet-py)."""
    p = p or parse_tet(path)
    b = Path(path).read_bytes()
    out = {}
    for rec in p.records:
        out[rec.name] = np.zeros(rec.shape, dtype=DTYPES[rec.dtype][2])
    for e in p.entries:
        rec = p.records[e.dataset_id]
        raw = b[e.payload_offset : e.payload_offset + e.stored_byte_len]
        if e.codec == 1:
            raw = zstd_decompress(raw)
            if len(raw) != e.raw_byte_len:
                raise SpecError("zstd frame decodes to the wrong length")
        sl = tuple(
            slice(c * cs, min((c + 1) * cs, s)) for c, cs, s in zip(e.chunk_index, rec.chunk_shape, rec.shape)
        )
        ext = [x.stop - x.start for x in sl]
        out[rec.name][sl] = np.frombuffer(raw, dtype=DTYPES[rec.dtype][2]).reshape(ext)
    return out


def dump(path: str | Path, max_entries: int = 12) -> str:
    """Human-readable struct dump of a .tet file's regions."""
    p = parse_tet(path)
    b = Path(path).read_bytes()
    lines = [f"{Path(path).name}: {p.size} bytes"]
    lines.append(
        f"  [0,32) superblock magic={p.magic.decode()} layout_version={p.layout_version} "
        f"dataset_count={p.dataset_count} flags={p.flags} chunk_index_offset={p.chunk_index_offset} "
        f"chunk_index_length={p.chunk_index_length}"
    )
    lines.append(f"  [32,40) dataset_blob_len={p.dataset_blob_len}")
    for r in p.records:
        lines.append(
            f"  @{r.offset} record name={r.name!r} ({len(r.name.encode())} B, pad {r.pad}) "
            f"dtype={DTYPES[r.dtype][0]} ndim={r.ndim} shape={r.shape} chunk_shape={r.chunk_shape}"
        )
    dend = 40 + p.dataset_blob_len
    lines.append(f"  [{dend},{p.chunk_index_offset}) directory padding: {len(p.dir_padding)} zero bytes")
    lines.append(
        f"  @{p.chunk_index_offset} index magic={p.index_magic.decode()} version={p.index_version} "
        f"entry_count={p.entry_count} budget_bps={p.budget_bps} budget_bytes={p.budget_bytes} "
        f"reserved={p.index_reserved}"
    )
    for i, e in enumerate(p.entries):
        if i == max_entries:
            lines.append(f"    ... {len(p.entries) - max_entries} more entries")
            break
        rec = p.records[e.dataset_id]
        lines.append(
            f"    entry {i}: ds={e.dataset_id} idx={e.chunk_index[: rec.ndim]} off={e.payload_offset} "
            f"raw={e.raw_byte_len} stored={e.stored_byte_len} codec={CODEC_NAMES[e.codec]}"
        )
    lines.append(
        f"  [{p.payload_region[0]},{p.payload_region[1]}) payloads, back to back"
        + (f"; gaps {p.payload_gaps}" if p.payload_gaps else "")
    )
    for key, off, ln in sorted(p.blobs, key=lambda t: t[1]):
        head = b[off : off + 24].decode("utf-8", "replace").replace("\n", "\\n")
        lines.append(f"  [{off},{off + ln}) {key} blob: {head!r}...")
    if p.flags & 1:
        if p.footer_json_offset is not None:
            lines.append(
                f"  [{p.footer_json_offset},{p.size - 16}) footer JSON ({p.footer_json_len} B), keys "
                f"{sorted(p.footer) if p.footer else None}"
            )
        tail = b[-16:]
        lines.append(f"  [{p.size - 16},{p.size}) tail json_len/footer_version/magic = {tail.hex()}"
                     f" (footer_version={p.footer_version})")
    if p.footer_error:
        lines.append(f"  footer error: {p.footer_error}")
    for n in p.notes:
        lines.append(f"  note: {n}")
    return "\n".join(lines)


# --------------------------------------------------------------------------
# minimal spec writer (only for files tet-py cannot produce)


@dataclass
class HandDataset:
    name: str
    array: np.ndarray
    chunk_shape: tuple[int, ...]


def zstd_compress(data: bytes, level: int, content_size: bool) -> bytes:
    """One zstd frame via the zstd CLI.

    From stdin the CLI does not know the input size, so the frame header
    carries no content size; passing a file makes it record the size. Both
    kinds are produced so readers are tested on each.
    """
    if shutil.which("zstd") is None:
        raise RuntimeError("the zstd CLI is needed to build zstd chunks (apt-get install zstd)")
    if not content_size:
        return subprocess.run(
            ["zstd", "-q", "-c", f"-{level}"], input=data, capture_output=True, check=True
        ).stdout
    with tempfile.NamedTemporaryFile() as tmp:
        tmp.write(data)
        tmp.flush()
        return subprocess.run(
            ["zstd", "-q", "-c", f"-{level}", tmp.name], capture_output=True, check=True
        ).stdout


def chunk_grid(shape: tuple[int, ...], chunk: tuple[int, ...]) -> list[tuple[int, ...]]:
    """All chunk coordinates in row-major order."""
    grid = [-(-s // c) for s, c in zip(shape, chunk)]
    return [tuple(int(x) for x in idx) for idx in np.ndindex(*grid)]


def write_tet(
    path: str | Path,
    datasets: list[HandDataset],
    *,
    codec_for: Any,
    footer: dict[str, Any] | None,
    budget_bps: int = 0,
    budget_bytes: int = 0,
) -> None:
    """Write a layout-v1 file exactly as the spec describes (footer_version 1).

    codec_for(ds_index, chunk_coords, raw_bytes) -> (codec, stored_bytes).
    """
    recs = b""
    for ds in datasets:
        name = ds.name.encode("utf-8")
        tag = TAG_BY_NAME[dtype_name(ds.array)]
        ndim = ds.array.ndim
        rec = struct.pack("<IIII", len(name), tag, ndim, 0) + name
        rec += b"\0" * (align8(len(rec)) - len(rec))
        rec += struct.pack(f"<{ndim}Q", *ds.array.shape) + struct.pack(f"<{ndim}Q", *ds.chunk_shape)
        recs += rec
    head_len = 40 + len(recs)
    cio = align8(head_len)
    chunks = []  # (ds_id, coords, codec, raw_len, stored)
    for i, ds in enumerate(datasets):
        arr = np.ascontiguousarray(ds.array.astype(ds.array.dtype.newbyteorder("<")))
        for coords in chunk_grid(arr.shape, ds.chunk_shape):
            sl = tuple(slice(c * cs, min((c + 1) * cs, s)) for c, cs, s in zip(coords, ds.chunk_shape, arr.shape))
            raw = np.ascontiguousarray(arr[sl]).tobytes()
            codec, stored = codec_for(i, coords, raw)
            chunks.append((i, coords, codec, len(raw), stored))
    cil = 32 + 104 * len(chunks)
    flags = 1 if footer is not None else 0
    out = bytearray(struct.pack("<4sIIIQQ", b"TETR", 1, len(datasets), flags, cio, cil))
    out += struct.pack("<Q", len(recs)) + recs
    out += b"\0" * (cio - len(out))
    out += struct.pack("<4sIQHHIQ", b"TIDX", 1, len(chunks), budget_bps, 0, budget_bytes, 0)
    cursor = cio + cil
    for ds_id, coords, codec, raw_len, stored in chunks:
        idx = list(coords) + [0] * (8 - len(coords))
        out += struct.pack("<9QQQQII", ds_id, *idx, cursor, raw_len, len(stored), codec, 0)
        cursor += len(stored)
    for *_, stored in chunks:
        out += stored
    if footer is not None:
        js = json.dumps(footer, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        out += js + struct.pack("<QI4s", len(js), 1, b"THST")
    Path(path).write_bytes(bytes(out))
