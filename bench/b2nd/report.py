#!/usr/bin/env python3
"""Turn gobench/pydecode samples (TOOL CASE PASS MB_PER_S lines) into a
markdown table: per case the median MB/s of Go and of C, the ratio of
the medians, and the sample count and spread (min-max) of each."""
import statistics
import sys
from collections import defaultdict

s = defaultdict(list)
order = []
for line in open(sys.argv[1]):
    f = line.split("\t")
    if len(f) != 4 or f[0] not in ("go", "c"):
        continue
    if f[1] not in order:
        order.append(f[1])
    s[(f[0], f[1])].append(float(f[3]))

print("| file (codec_filter) | Go MB/s | C MB/s | Go/C | Go min-max | C min-max | n |")
print("|---|---:|---:|---:|---:|---:|---:|")
for c in order:
    g, k = s[("go", c)], s[("c", c)]
    if not g or not k:
        continue
    mg, mc = statistics.median(g), statistics.median(k)
    print(f"| {c} | {mg:.0f} | {mc:.0f} | {mg / mc:.2f} | {min(g):.0f}-{max(g):.0f} "
          f"| {min(k):.0f}-{max(k):.0f} | {len(g)}/{len(k)} |")
