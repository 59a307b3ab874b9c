#!/usr/bin/env python3
"""Struct dump of .tet files, region by region, checked against the spec.

Usage: python3 scripts/interop/dump_tet.py FILE.tet [...] [--entries N]
Raises (exit 1) on a spec violation; prints notes for things the spec does
not describe (footer_version 2, zone/index blobs).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import tetlib  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--entries", type=int, default=12, help="chunk index rows to show per file")
    args = ap.parse_args()
    rc = 0
    for path in args.files:
        try:
            print(tetlib.dump(path, max_entries=args.entries))
        except tetlib.SpecError as exc:
            print(f"{path}: SPEC VIOLATION: {exc}")
            rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
