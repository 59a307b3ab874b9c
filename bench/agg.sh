#!/usr/bin/env bash
# Benchmark of the <dataset>_agg tables against the cells table, cat, zstd
# decoding and tet-py 0.8.3. See bench/README.md.
#
#   bench/agg.sh                       # everything, files and results in a temp dir
#   OUT=/tmp/ab ROUNDS=5 N=3 bench/agg.sh
#
# Environment: OUT (work dir, default a new temp dir), ROUNDS (default 3),
# N (measured repetitions per round, default 3), CELLS_N (cells-table
# repetitions per round, default 2), TETPY=0 to skip tet-py.
# Every measurement is repeated in each round, and the rounds alternate
# between the tools, so that the medians (over ROUNDS×N samples) and their
# ratios come from the same stretch of time on a noisy machine.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/tetsql-aggbench.XXXXXX")}
ROUNDS=${ROUNDS:-3}
N=${N:-3}
CELLS_N=${CELLS_N:-2}
TETPY=${TETPY:-1}
mkdir -p "$OUT/bin"
OUT=$(cd "$OUT" && pwd) # absolute: tet-py cannot query a file opened by a relative path
SAMPLES=$OUT/samples.tsv
: >"$SAMPLES"
log() { printf '== %s\n' "$*" >&2; }

log "building into $OUT/bin"
(cd "$REPO" && go build -o "$OUT/bin/aggbench" ./bench/aggbench &&
	go build -o "$OUT/bin/tetgen" ./cmd/tetgen && go build -o "$OUT/bin/tetsql" ./cmd/tetsql)
AB=$OUT/bin/aggbench

log "machine"
{
	echo "date: $(date -u +%FT%TZ)"
	echo "nproc: $(nproc)"
	lscpu | grep -E '^(Model name|Thread|Core|Socket|CPU MHz|L2|L3)' || true
	free -h | head -2
	echo "go: $(go version)"
	# Other work may be in progress in the tree: record what was built.
	if git -C "$REPO" rev-parse HEAD >/dev/null 2>&1; then
		echo "tree: $(git -C "$REPO" rev-parse --short HEAD), $(git -C "$REPO" status --porcelain | grep -cv '^?? bench/') uncommitted changes outside bench/"
	else
		echo "tree: not a git checkout"
	fi
	echo "load: $(cat /proc/loadavg 2>/dev/null || true)"
} | tee "$OUT/machine.txt" >&2

log "generating files (tetgen, wave pattern)"
G=$OUT/grid.tet Z=$OUT/gridz.tet C=$OUT/cube.tet R=$OUT/cuberun.tet
"$OUT/bin/tetgen" -o "$G" --dataset 'grid:f32:4096x4096:256x256:raw:y,x' --pattern wave
"$OUT/bin/tetgen" -o "$Z" --dataset 'grid:f32:4096x4096:256x256:zstd:y,x' --pattern wave
"$OUT/bin/tetgen" -o "$C" --dataset 'cube:f32:64x64x64x64:4x4x64x64:raw:t,z,y,x' --pattern wave
# The same cube in 1×4×64×64 chunks: each chunk is one contiguous run of the array.
"$OUT/bin/tetgen" -o "$R" --dataset 'cube:f32:64x64x64x64:1x4x64x64:raw:t,z,y,x' --pattern wave
# The same grid behind a 3-byte u8 dataset: every f32 payload starts at an odd offset.
U=$OUT/unaligned.tet
"$OUT/bin/tetgen" -o "$U" --dataset 'pad:u8:3:3:raw' --dataset 'grid:f32:4096x4096:256x256:raw:y,x' --pattern wave
ls -l "$G" "$Z" "$C" "$R" "$U" >&2
for f in "$G" "$Z" "$C" "$R" "$U"; do
	# tet-py 0.8.3 panics on whole-dataset f32 reductions when payloads are not 4-byte aligned.
	"$OUT/bin/tetsql" --mode tsv --no-header "$f" \
		"SELECT '$(basename "$f"): ' || dataset || ': first payload at ' || min(payload_offset) || ', raw chunks not 4-byte aligned: ' || sum(codec = 'raw' AND payload_offset % 4 != 0) || ' of ' || count(*) FROM tet_chunks GROUP BY dataset" >&2
done

GRID_BYTES=$((4096 * 4096 * 4))
# sqlargs PREFIX TABLE SLAB_WHERE: one query per op, and all five at once.
sqlargs() {
	local p=$1 t=$2 w=$3 op
	for op in sum mean min max var; do
		echo "$p/whole/$op=SELECT $op FROM ${t}_agg"
		echo "$p/slab/$op=SELECT $op FROM ${t}_agg WHERE $w"
	done
	echo "$p/whole/all@$GRID_BYTES=SELECT sum, mean, min, max, var FROM ${t}_agg"
	echo "$p/slab/all=SELECT sum, mean, min, max, var FROM ${t}_agg WHERE $w"
}
mapfile -t Q_RAW < <(sqlargs tetsql/raw grid 'y BETWEEN 1000 AND 1999')
mapfile -t Q_ZSTD < <(sqlargs tetsql/zstd grid 'y BETWEEN 1000 AND 1999')
mapfile -t Q_CUBE < <(sqlargs tetsql/cube cube 'z BETWEEN 10 AND 40')
mapfile -t Q_CUBERUN < <(sqlargs tetsql/cuberun cube 'z BETWEEN 10 AND 40')

if [ "$TETPY" = 1 ]; then
	if ! python3 -c 'import tet, sys; sys.exit(tet.core_version() != "0.8.3")' 2>/dev/null; then
		log "installing tet-py 0.8.3"
		if ! python3 -m pip install -q 'tet-py==0.8.3' >&2; then
			log "pip is unavailable or failed: skipping the tet-py comparison"
			TETPY=0
		fi
	fi
fi

NPROC=$(nproc)
for r in $(seq 1 "$ROUNDS"); do
	log "round $r/$ROUNDS: tetsql agg"
	"$AB" sql -n "$N" "$G" "${Q_RAW[@]}" >>"$SAMPLES"
	"$AB" sql -n "$N" "$Z" "${Q_ZSTD[@]}" >>"$SAMPLES"
	"$AB" sql -n "$N" "$C" "${Q_CUBE[@]}" >>"$SAMPLES"
	"$AB" sql -n "$N" "$R" "${Q_CUBERUN[@]}" >>"$SAMPLES"
	"$AB" sql -n "$N" "$U" "tetsql/unaligned/whole/all@$GRID_BYTES=SELECT sum, mean, min, max, var FROM grid_agg" \
		'tetsql/unaligned/slab/all=SELECT sum, mean, min, max, var FROM grid_agg WHERE y BETWEEN 1000 AND 1999' >>"$SAMPLES"
	if [ "$TETPY" = 1 ]; then
		log "round $r/$ROUNDS: tet-py"
		python3 "$REPO/bench/tetpy_bench.py" -n "$N" \
			"raw=$G:grid:0:1000:2000" "zstd=$Z:grid:0:1000:2000" "cube=$C:cube:1:10:41" "cuberun=$R:cube:1:10:41" "unaligned=$U:grid:0:1000:2000" >>"$SAMPLES"
	fi
	log "round $r/$ROUNDS: cells table"
	"$AB" sql -n "$CELLS_N" "$G" \
		'cells/raw/whole/sum=SELECT sum(value) FROM grid' \
		'cells/raw/slab/sum=SELECT sum(value) FROM grid WHERE y BETWEEN 1000 AND 1999' >>"$SAMPLES"
	log "round $r/$ROUNDS: cat, read loop, zstd decode-only"
	for f in raw:"$G" zstd:"$Z"; do
		cat "${f#*:}" >/dev/null # warm
		for i in $(seq 1 "$N"); do
			t0=$(date +%s%N)
			cat "${f#*:}" >/dev/null
			t1=$(date +%s%N)
			printf 'sample\tcat/%s\t%s\t0\t0\n' "${f%%:*}" "$(awk -v d=$((t1 - t0)) 'BEGIN{printf "%.9f", d/1e9}')" >>"$SAMPLES"
		done
		"$AB" read -n "$N" "${f#*:}" "read/${f%%:*}" >>"$SAMPLES"
	done
	"$AB" decode -n "$N" -j 1 "$Z" decode/zstd/j1 >>"$SAMPLES"
	"$AB" decode -n "$N" -j "$NPROC" "$Z" "decode/zstd/j$NPROC" >>"$SAMPLES"
done

log "report"
"$AB" report -procs "$NPROC" -o "$OUT/results.md" "$SAMPLES"
cat "$OUT/results.md"
log "samples: $SAMPLES; results: $OUT/results.md; machine: $OUT/machine.txt"
