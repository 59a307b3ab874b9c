#!/usr/bin/env bash
# tetsql queries (_agg and cells) over a Blosc2 NDim (.b2nd) file against
# the same values as .tet, in one run, answers checked equal.
# See bench/README.md ("bench/b2nd").
#
#   bench/b2nd/agg.sh                        # files and results in a new temp dir
#   OUT=/tmp/b2agg N=9 FRESH=5 bench/b2nd/agg.sh
#
# Environment: OUT (work dir; the cube files are reused when present),
# N (warm rounds, default 7), FRESH (fresh-process rounds, default 5),
# SMALL=0 to leave out the small-chunk pair, SEED (default 1).
# Needs Go and python3 with blosc2 (4.x) and numpy.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/tetsql-b2agg.XXXXXX")}
N=${N:-7}
FRESH=${FRESH:-5}
SMALL=${SMALL:-1}
SEED=${SEED:-1}
mkdir -p "$OUT/bin"
OUT=$(cd "$OUT" && pwd)
log() { printf '== %s\n' "$*" >&2; }

log "building into $OUT/bin"
(cd "$REPO" && go build -o "$OUT/bin/b2ndagg" ./bench/b2ndagg)
B=$OUT/bin/b2ndagg

log "machine"
{
	echo "date: $(date -u +%FT%TZ)"
	echo "nproc: $(nproc)"
	lscpu | grep -E '^(Model name|Thread|Core|Socket|L2|L3)' || true
	echo "go: $(go version)"
	echo "python-blosc2: $(python3 -c 'import blosc2; print(blosc2.__version__)')"
	if git -C "$REPO" rev-parse HEAD >/dev/null 2>&1; then
		echo "tree: $(git -C "$REPO" rev-parse --short HEAD), $(git -C "$REPO" status --porcelain | grep -cv '^?? bench/') uncommitted changes outside bench/"
	fi
	echo "knobs: N=$N FRESH=$FRESH SMALL=$SMALL SEED=$SEED"
	echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$OUT/machine.txt" >&2

small=()
[ "$SMALL" = 1 ] && small=(--small)
if [ ! -f "$OUT/zstd.b2nd" ] || [ ! -f "$OUT/lz4.b2nd" ] || { [ "$SMALL" = 1 ] && [ ! -f "$OUT/small.b2nd" ]; }; then
	log "writing the cube (python-blosc2)"
	python3 "$REPO/bench/b2nd/make_cube.py" "$OUT" --seed "$SEED" "${small[@]}" >&2
fi
log "converting to .tet (every chunk compared with the .b2nd's)"
"$B" convert -codec zstd "$OUT/zstd.b2nd" "$OUT/tet-zstd.tet" >&2
"$B" convert -codec raw "$OUT/zstd.b2nd" "$OUT/tet-raw.tet" >&2
files=(tet-zstd="$OUT/tet-zstd.tet" b2nd-zstd="$OUT/zstd.b2nd" b2nd-lz4="$OUT/lz4.b2nd" tet-raw="$OUT/tet-raw.tet")
pairs=b2nd-zstd/tet-zstd,b2nd-lz4/tet-zstd
if [ "$SMALL" = 1 ]; then
	"$B" convert -codec zstd "$OUT/small.b2nd" "$OUT/tet-small.tet" >&2
	files+=(tet-small="$OUT/tet-small.tet" b2nd-small="$OUT/small.b2nd")
	pairs+=,b2nd-small/tet-small
fi

log "timing: $N warm rounds, $FRESH fresh rounds"
"$B" run -n "$N" -fresh "$FRESH" "${files[@]}" >"$OUT/samples.tsv"
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/machine.txt"

"$B" report -pairs "$pairs" -o "$OUT/results.md" "$OUT/samples.tsv"
cat "$OUT/results.md"
log "samples: $OUT/samples.tsv; results: $OUT/results.md; machine: $OUT/machine.txt; cube: $OUT/cube.json"
