#!/usr/bin/env bash
# tetsql cells queries against a native SQLite table, DuckDB and (for
# sums) tet-py, over the same values, in one run. See bench/README.md.
#
#   bench/compare.sh                          # 1 GiB tier (+ the 1e9-element file, tetsql only)
#   TIER=4 bench/compare.sh                   # 4 GiB tier for every system (slow: ~4x the loads)
#   OUT=/tmp/cmp ROUNDS=3 N=1 FAST_N=10 bench/compare.sh
#
# Environment: OUT (work dir; files and loads already in it are reused),
# TIER (1 or 4), ROUNDS (default 3), N (scan repetitions per round, default
# 1), FAST_N (repetitions per round of point/row/col/box, default 10),
# BIG=0 (skip the 32768x32768 file: targets 3 and 4), DUCKDB=0, TETPY=0,
# MEM=0 (skip the memory runs), START=0 (skip hyperfine).
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/tetsql-cmp.XXXXXX")}
TIER=${TIER:-1}
ROUNDS=${ROUNDS:-3}
N=${N:-1}
FAST_N=${FAST_N:-10}
BIG=${BIG:-1}
DUCKDB=${DUCKDB:-1}
TETPY=${TETPY:-1}
MEM=${MEM:-1}
START=${START:-1}
mkdir -p "$OUT/bin"
OUT=$(cd "$OUT" && pwd)
SAMPLES=$OUT/samples.tsv
: >"$SAMPLES"
log() { printf '== %s %s\n' "$(date -u +%T)" "$*" >&2; }

case $TIER in
1) GN=16384 CT=128 ;;  # grid 16384², cube 128x128x128x128: 1 GiB of f32 each
4) GN=32768 CT=512 ;;  # grid 32768², cube 512x128x128x128: 4 GiB each
s) GN=1024 CT=8 ;;     # smoke test of the script only (some queries select nothing)
*) echo "TIER must be 1, 4 or s" >&2; exit 2 ;;
esac

log "building into $OUT/bin"
(cd "$REPO" && go build -o "$OUT/bin/cmpbench" ./bench/cmpbench &&
	go build -o "$OUT/bin/tetgen" ./cmd/tetgen && go build -o "$OUT/bin/tetsql" ./cmd/tetsql)
if [ "$DUCKDB" = 1 ]; then
	if ! (cd "$REPO/bench/duckdb" && go build -o "$OUT/bin/duckbench" .) >&2; then
		log "DuckDB binding did not build (bench/duckdb): skipping DuckDB"
		DUCKDB=0
	fi
fi
CB=$OUT/bin/cmpbench DB=$OUT/bin/duckbench

{
	echo "date: $(date -u +%FT%TZ)"
	echo "nproc: $(nproc)"
	lscpu | grep -E '^(Model name|Thread|Core|Socket|L2|L3)' || true
	free -h | head -2
	echo "go: $(go version)"
	echo "disk: $(df -h "$OUT" | tail -1)"
	if git -C "$REPO" rev-parse HEAD >/dev/null 2>&1; then
		echo "tree: $(git -C "$REPO" rev-parse --short HEAD), $(git -C "$REPO" status --porcelain | grep -cv '^?? bench/') uncommitted changes outside bench/"
	fi
	echo "load: $(cat /proc/loadavg)"
} | tee "$OUT/machine.txt" >&2

# gen FILE SPEC: tetgen, wave pattern, unless FILE is already there.
gen() {
	if [ ! -s "$OUT/$1" ]; then
		log "tetgen $1 ($2)"
		/usr/bin/time -f "gen $1 %e s" "$OUT/bin/tetgen" -o "$OUT/$1" --dataset "$2" --pattern wave -j "$(nproc)"
	fi
}
gen grid.tet "grid:f32:${GN}x${GN}:256x256:raw:y,x"
gen gridz.tet "grid:f32:${GN}x${GN}:256x256:zstd:y,x"
gen cube.tet "cube:f32:${CT}x128x128x128:1x4x128x128:raw:t,z,y,x"
gen cubez.tet "cube:f32:${CT}x128x128x128:1x4x128x128:zstd:t,z,y,x"
gen g4k.tet "grid:f32:4096x4096:256x256:raw:y,x" # target 1
if [ "$BIG" = 1 ]; then                            # targets 3 and 4: 32768² = 1.07e9 elements
	if [ "$TIER" = 4 ]; then
		ln -sf grid.tet "$OUT/big.tet"
		ln -sf gridz.tet "$OUT/bigz.tet"
	else
		gen big.tet "grid:f32:32768x32768:256x256:raw:y,x"
		gen bigz.tet "grid:f32:32768x32768:256x256:zstd:y,x"
	fi
fi
ls -l "$OUT"/*.tet >&2

# Loads: the values read back through tetsql in row-major order, one
# INSERT/append per leading index. Reused when already done in OUT.
LOADS=$OUT/loads.tsv
touch "$LOADS"
load_sqlite() { # DB TABLE BY [-valueonly]
	local kind=pk
	[ "${4:-}" = -valueonly ] && kind=valueonly
	if ! grep -q "^load	sqlite-$kind/$1	" "$OUT/load_$1.tsv" 2>/dev/null || [ ! -s "$OUT/$1" ]; then
		log "SQLite import $1"
		"$CB" import -db "$OUT/$1" -table "$2" -by "$3" ${4:-} "$OUT/$5" >"$OUT/load_$1.tsv"
	fi
	cat "$OUT/load_$1.tsv" >>"$SAMPLES"
}
load_sqlite grid.db grid y "" grid.tet
load_sqlite cube.db cube t,z "" cube.tet
load_sqlite g4k_pk.db grid y "" g4k.tet
load_sqlite g4k_v.db grid y -valueonly g4k.tet
if [ "$DUCKDB" = 1 ]; then
	for d in grid:y cube:t,z; do
		t=${d%%:*}
		if ! grep -q "^load	duckdb/$t.duckdb	" "$OUT/load_$t.duckdb.tsv" 2>/dev/null || [ ! -s "$OUT/$t.duckdb" ]; then
			log "DuckDB load $t"
			"$DB" load -db "$OUT/$t.duckdb" -table "$t" -by "${d#*:}" "$OUT/$t.tet" >"$OUT/load_$t.duckdb.tsv"
		fi
		cat "$OUT/load_$t.duckdb.tsv" >>"$SAMPLES"
	done
fi
ls -l "$OUT"/*.db "$OUT"/*.duckdb 2>/dev/null >&2 || true

# The queries: identical SQL text for every system.
# Slabs: 1/16 of each array, starting a quarter in (16384: y 4096..5119; 128: t 32..39).
GS=$((GN / 4)) GE=$((GN / 4 + GN / 16 - 1))
CS=$((CT / 4)) CE=$((CT / 4 + (CT + 15) / 16 - 1))
q_grid_fast=(
	"point=SELECT value FROM grid WHERE y = 12345 AND x = 6789"
	"row=SELECT count(*), sum(value) FROM grid WHERE y = 9000"
	"box=SELECT count(*), sum(value) FROM grid WHERE y BETWEEN 5000 AND 5999 AND x BETWEEN 3000 AND 3999"
)
q_grid_scan=(
	"col=SELECT count(*), sum(value) FROM grid WHERE x = 9000"
	"slab=SELECT count(*), sum(value) FROM grid WHERE y BETWEEN $GS AND $GE"
	"full=SELECT sum(value) FROM grid"
	"filtered=SELECT count(*), sum(value) FROM grid WHERE value > 0.5"
)
q_cube_fast=(
	"point=SELECT value FROM cube WHERE t = 100 AND z = 50 AND y = 60 AND x = 70"
	"row=SELECT count(*), sum(value) FROM cube WHERE t = 5 AND z = 6 AND y = 7"
	"box=SELECT count(*), sum(value) FROM cube WHERE t BETWEEN 10 AND 19 AND z BETWEEN 20 AND 29 AND y BETWEEN 30 AND 39 AND x BETWEEN 40 AND 49"
)
q_cube_scan=(
	"col=SELECT count(*), sum(value) FROM cube WHERE z = 6 AND y = 7 AND x = 8"
	"slab=SELECT count(*), sum(value) FROM cube WHERE t BETWEEN $CS AND $CE"
	"full=SELECT sum(value) FROM cube"
	"filtered=SELECT count(*), sum(value) FROM cube WHERE value > 0.5"
)
# Reductions through the aggregate tables (tetsql's answer to a sum), same selections.
agg_grid=("full=SELECT sum FROM grid_agg" "slab=SELECT count, sum FROM grid_agg WHERE y BETWEEN $GS AND $GE")
agg_cube=("full=SELECT sum FROM cube_agg" "slab=SELECT count, sum FROM cube_agg WHERE t BETWEEN $CS AND $CE")

run_all() { # one round: every system, every data set
	local d fast scan agg w=0
	[ "$r" = 1 ] && w=1 # scans: an unmeasured warm-up run in round 1 only (page cache, result)
	for d in grid cube; do
		eval "fast=(\"\${q_${d}_fast[@]}\")"
		eval "scan=(\"\${q_${d}_scan[@]}\")"
		eval "agg=(\"\${agg_${d}[@]}\")"
		log "round $r/$ROUNDS $d: tetsql raw"
		"$CB" sql -n "$FAST_N" "$OUT/$d.tet" "${fast[@]/#/tetsql-raw/$d/}" >>"$SAMPLES"
		"$CB" sql -n "$N" -warm "$w" "$OUT/$d.tet" "${scan[@]/#/tetsql-raw/$d/}" >>"$SAMPLES"
		# The aggregate tables in their own process: a whole-chunk fold caches chunk min/max
		# for the file's life, and later value predicates (filtered) would skip chunks with it.
		"$CB" sql -n "$N" -warm "$w" "$OUT/$d.tet" "${agg[@]/#/tetsql-agg-raw/$d/}" >>"$SAMPLES"
		log "round $r/$ROUNDS $d: tetsql zstd"
		"$CB" sql -n "$FAST_N" "$OUT/${d}z.tet" "${fast[@]/#/tetsql-zstd/$d/}" >>"$SAMPLES"
		"$CB" sql -n "$N" -warm "$w" "$OUT/${d}z.tet" "${scan[@]/#/tetsql-zstd/$d/}" >>"$SAMPLES"
		"$CB" sql -n "$N" -warm "$w" "$OUT/${d}z.tet" "${agg[@]/#/tetsql-agg-zstd/$d/}" >>"$SAMPLES"
		log "round $r/$ROUNDS $d: tetsql zstd, read_ahead=4&decode_parallelism=2"
		"$CB" sql -n "$N" -warm "$w" "$OUT/${d}z.tet?read_ahead=4&decode_parallelism=2" "${scan[@]/#/tetsql-zstd-ra/$d/}" >>"$SAMPLES"
		log "round $r/$ROUNDS $d: native SQLite"
		"$CB" sql -n "$FAST_N" -attach "nat=$OUT/$d.db" "" "${fast[@]/#/sqlite/$d/}" >>"$SAMPLES"
		"$CB" sql -n "$N" -warm "$w" -attach "nat=$OUT/$d.db" "" "${scan[@]/#/sqlite/$d/}" >>"$SAMPLES"
		if [ "$DUCKDB" = 1 ]; then
			log "round $r/$ROUNDS $d: DuckDB"
			"$DB" sql -n "$FAST_N" "$OUT/$d.duckdb" "${fast[@]/#/duckdb/$d/}" >>"$SAMPLES"
			"$DB" sql -n "$N" -warm "$w" "$OUT/$d.duckdb" "${scan[@]/#/duckdb/$d/}" >>"$SAMPLES"
		fi
	done
	if [ "$TETPY" = 1 ]; then
		log "round $r/$ROUNDS: tet-py sums"
		python3 "$REPO/bench/cmp_tetpy.py" -n "$N" \
			"tetpy-raw/grid=$OUT/grid.tet:grid:0:$GS:$((GE + 1))" "tetpy-zstd/grid=$OUT/gridz.tet:grid:0:$GS:$((GE + 1))" \
			"tetpy-raw/cube=$OUT/cube.tet:cube:0:$CS:$((CE + 1))" "tetpy-zstd/cube=$OUT/cubez.tet:cube:0:$CS:$((CE + 1))" >>"$SAMPLES"
	fi
	log "round $r/$ROUNDS: target 1 (4096², same process)"
	"$CB" sql -n 5 -attach "pk=$OUT/g4k_pk.db" -attach "v=$OUT/g4k_v.db" "$OUT/g4k.tet" \
		't1/tetsql=SELECT sum(value) FROM g4k.grid' 't1/sqlite-pk=SELECT sum(value) FROM pk.grid' \
		't1/sqlite-valueonly=SELECT sum(value) FROM v.grid' >>"$SAMPLES"
	if [ "$BIG" = 1 ]; then
		log "round $r/$ROUNDS: selective queries on the 1e9-element file"
		"$CB" sql -n "$FAST_N" "$OUT/big.tet" "${q_grid_fast[@]/#/big-raw/}" "${q_grid_scan[0]/#/big-raw/}" >>"$SAMPLES"
		"$CB" sql -n "$FAST_N" "$OUT/bigz.tet" "${q_grid_fast[@]/#/big-zstd/}" "${q_grid_scan[0]/#/big-zstd/}" >>"$SAMPLES"
	fi
}

if [ "$TETPY" = 1 ] && ! python3 -c 'import tet' 2>/dev/null; then
	python3 -m pip install -q 'tet-py==0.8.3' >&2 || { log "tet-py unavailable: skipping it"; TETPY=0; }
fi
for r in $(seq 1 "$ROUNDS"); do
	run_all
done

if [ "$START" = 1 ]; then
	log "process start to first result (prebuilt tetsql binary)"
	T=$OUT/bin/tetsql
	starts=("start/demo-point|$T $REPO/testdata/demo.tet \"SELECT value FROM temperature WHERE time_label = '2024-03-15' AND station_label = 'Oslo'\"")
	if [ "$BIG" = 1 ]; then
		starts+=("start/big-raw-point|$T $OUT/big.tet \"SELECT value FROM grid WHERE y = 12345 AND x = 6789\""
			"start/big-zstd-point|$T $OUT/bigz.tet \"SELECT value FROM grid WHERE y = 12345 AND x = 6789\"")
	fi
	for s in "${starts[@]}"; do
		key=${s%%|*} cmd=${s#*|}
		printf 'result\t%s\tvalue=%s\n' "$key" "$(eval "$cmd" | tail -1)" >>"$SAMPLES"
		if command -v hyperfine >/dev/null; then
			hyperfine -N -w 5 -r 30 --export-json "$OUT/hf.json" "$cmd" >&2
			python3 -c 'import json,sys; [print(f"sample\t{sys.argv[1]}\t{t:.9f}\t0\t0") for t in json.load(open(sys.argv[2]))["results"][0]["times"]]' "$key" "$OUT/hf.json" >>"$SAMPLES"
		else
			for i in $(seq 1 30); do
				t0=$(date +%s%N)
				eval "$cmd" >/dev/null
				t1=$(date +%s%N)
				printf 'sample\t%s\t%s\t0\t0\n' "$key" "$(awk -v d=$((t1 - t0)) 'BEGIN{printf "%.9f", d/1e9}')" >>"$SAMPLES"
			done
		fi
	done
fi

if [ "$MEM" = 1 ]; then
	log "memory: one full scan per fresh process"
	mem() { # KEY DSN SQL
		/usr/bin/time -f "time-v max RSS KiB %M" "$CB" mem "$OUT/$2" "$1" "$3" >>"$SAMPLES" 2>>"$OUT/mem_time.txt"
	}
	mem mem/grid-raw-1GiB grid.tet "SELECT sum(value) FROM grid"
	mem mem/grid-zstd-1GiB gridz.tet "SELECT sum(value) FROM grid"
	mem mem/grid-zstd-1GiB-ra4 "gridz.tet?read_ahead=4&decode_parallelism=2" "SELECT sum(value) FROM grid"
	mem mem/grid-zstd-1GiB-agg gridz.tet "SELECT sum FROM grid_agg"
	if [ "$BIG" = 1 ]; then
		mem mem/grid-zstd-4GiB bigz.tet "SELECT sum(value) FROM grid"
		mem mem/grid-zstd-4GiB-ra4 "bigz.tet?read_ahead=4&decode_parallelism=2" "SELECT sum(value) FROM grid"
		mem mem/grid-zstd-4GiB-agg bigz.tet "SELECT sum FROM grid_agg"
	fi
	cat "$OUT/mem_time.txt" >&2
fi

log "report"
"$CB" report -o "$OUT/results.md" "$SAMPLES"
log "samples: $SAMPLES; results: $OUT/results.md; machine: $OUT/machine.txt"
