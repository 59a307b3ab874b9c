#!/usr/bin/env python3
"""Turn gobench/pydecode samples into a markdown table.

Usage: report.py SAMPLES.tsv [DIR]

Per case: median MB/s (10^6 decoded bytes per CPU second of the process)
of Go decoding into reused buffers (go) and into new ones (gonew), of the
reference package without and with hash verification (py, pyhash); the
ratio Go / reference-with-hashes (both verify every object's xxh3 hash,
as tetsql always does) from CPU and from wall-clock medians, the ratio
for new buffers, the median Go Scan time of the file, the file's size
and compression ratio when DIR is given, and whether both tools decoded
the same bytes (the SHA-256 lines). A checksum mismatch is also reported
on stderr and makes the exit status 1."""
import os
import statistics
import sys
from collections import defaultdict

cpu = defaultdict(list)
wall = defaultdict(list)
sums = defaultdict(set)
order = []
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    if len(f) == 4 and f[0] == "sum":
        sums[(f[1], f[2])].add(f[3])
        continue
    if len(f) != 5 or f[0] not in ("go", "gonew", "scan", "py", "pyhash"):
        continue
    if f[1] not in order:
        order.append(f[1])
    cpu[(f[0], f[1])].append(float(f[3]))
    wall[(f[0], f[1])].append(float(f[4]))
folder = sys.argv[2] if len(sys.argv) > 2 else None

med = statistics.median
bad = []
print("| pipeline (file) | Go MB/s | ref MB/s (hash on) | Go/ref | Go/ref (wall) | Go new-buffer MB/s | "
      "Go new/ref | ref MB/s (hash off) | Go Scan ms | file MB | same bytes | n |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|")
for c in order:
    g, gn, p, ph, sc = (cpu[(t, c)] for t in ("go", "gonew", "py", "pyhash", "scan"))
    if not g or not ph:
        continue
    rw = med(wall[("go", c)]) / med(wall[("pyhash", c)])
    size = ""
    if folder and os.path.exists(os.path.join(folder, c + ".tgm")):
        size = f"{os.path.getsize(os.path.join(folder, c + '.tgm')) / 1e6:.1f}"
    gs, ps = sums[("go", c)], sums[("py", c)]
    same = "yes" if gs and gs == ps and len(gs) == 1 else "NO"
    if same == "NO":
        bad.append(c)
    print(f"| {c} | {med(g):.0f} | {med(ph):.0f} | {med(g) / med(ph):.2f} | {rw:.2f} | "
          f"{med(gn):.0f} | {med(gn) / med(ph):.2f} | {med(p):.0f} | {med(sc):.2f} | {size} | {same} | "
          f"{len(g)}/{len(ph)} |")
if bad:
    print("checksum mismatch (Go and the reference decode differently): " + " ".join(bad), file=sys.stderr)
    sys.exit(1)
