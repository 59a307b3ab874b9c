#!/usr/bin/env python3
"""Turn gobench/pydecode samples (TOOL CASE PASS MB_PER_CPU_S MB_PER_WALL_S
lines) into a markdown table: per case the median MB/s of Go and of C per
CPU second of the decoding thread, the ratio of the medians, the same
ratio from wall-clock time, and the spread (min-max) and sample count."""
import statistics
import sys
from collections import defaultdict

cpu = defaultdict(list)
wall = defaultdict(list)
order = []
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    if len(f) != 5 or f[0] not in ("go", "c"):
        continue
    if f[1] not in order:
        order.append(f[1])
    cpu[(f[0], f[1])].append(float(f[3]))
    wall[(f[0], f[1])].append(float(f[4]))

med = statistics.median
print("| file (codec_filters) | Go MB/s | C MB/s | Go/C | Go/C (wall) | Go min-max | C min-max | n |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for c in order:
    g, k = cpu[("go", c)], cpu[("c", c)]
    if not g or not k:
        continue
    mg, mc = med(g), med(k)
    rw = med(wall[("go", c)]) / med(wall[("c", c)])
    print(f"| {c} | {mg:.0f} | {mc:.0f} | {mg / mc:.2f} | {rw:.2f} | {min(g):.0f}-{max(g):.0f} "
          f"| {min(k):.0f}-{max(k):.0f} | {len(g)}/{len(k)} |")
