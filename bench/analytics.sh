#!/usr/bin/env bash
# bench/analytics.sh: array analytics on an ERA5-like cube, tetsql against
# DuckDB on identical values, in one run. See bench/README.md ("Array
# analytics vs DuckDB") for what is compared and how long it takes.
#
# Knobs (environment):
#   OUT=DIR       results and scratch (default: a new /tmp/analytics.XXXX)
#   DATA=DIR      where t2m.tet and t2m.duckdb are made, or reused (default $OUT)
#   ROUNDS=3      rounds; each runs both tools, alternating which goes first
#   N=3           measured repetitions per query and round, warm process
#   SLOW_N=1      the same for the queries marked n in the FRESH column (slow ones)
#   FRESH=1       fresh-process runs per query and round (0: none)
#   ONLY=REGEX    only the query keys matching REGEX (grep -E)
#   TIMEOUT=120s  a tetsql query running longer is reported as an error
#   TET_OPTS=     DSN options for tetsql, e.g. '?cache_budget=0' (no decoded-chunk cache)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$(mktemp -d /tmp/analytics.XXXX)}
DATA=${DATA:-$OUT}
ROUNDS=${ROUNDS:-3} N=${N:-3} SLOW_N=${SLOW_N:-1} FRESH=${FRESH:-1}
ONLY=${ONLY:-.} TIMEOUT=${TIMEOUT:-120s} TET_OPTS=${TET_OPTS:-}
mkdir -p "$OUT/tet" "$OUT/duck" "$DATA"
log() { echo "[$(date -u +%H:%M:%S)] $*" >&2; }

log "building anbench and duckbench (cgo, DuckDB) into $OUT"
(cd "$ROOT" && go build -o "$OUT/anbench" ./bench/anbench)
(cd "$ROOT/bench/duckdb" && go build -o "$OUT/duckbench" .)
AN=$OUT/anbench DUCK=$OUT/duckbench
TET=$DATA/t2m.tet DB=$DATA/t2m.duckdb

if [ ! -s "$TET" ]; then
	log "generating $TET (730x181x360 f32, 30-day zstd chunks)"
	"$AN" gen -o "$TET"
fi
if [ ! -s "$DB" ] || [ "$DB" -ot "$TET" ]; then
	log "loading the same values into DuckDB ($DB), about a minute"
	"$DUCK" load -db "$DB" -table t2m -by time "$TET" | tee "$OUT/load.txt" >&2
fi

# The threshold: the 0.99 quantile rounded down to 1/1024 plus 1/2048.
# Values are multiples of 1/1024, so none equals it and > means the same
# in every engine whatever the literal's type.
p99=$("$DUCK" sql -n 0 -warm 1 "$DB" 'p=SELECT quantile_cont(value, 0.99)::DOUBLE FROM t2m' |
	awk -F'\t' '$1 == "result" { split($3, kv, "="); printf "%.10g", int(kv[2] * 1024) / 1024 + 1 / 2048 }')
log "threshold {P99} = $p99"
grep -v '^#' "$ROOT/bench/analytics_queries.tsv" | sed "s/{P99}/$p99/g" |
	awk -F'\t' -v re="$ONLY" '$1 ~ re' >"$OUT/queries.tsv"

fast_t=() fast_d=() slow_t=() slow_d=() fresh_keys=()
declare -A tsql dsql
while IFS=$'\t' read -r key fresh tq dq _; do
	tsql[$key]=$tq dsql[$key]=$dq
	if [ "$fresh" = y ]; then
		fast_t+=("$key=$tq") fast_d+=("$key=$dq") fresh_keys+=("$key")
	else
		slow_t+=("$key=$tq") slow_d+=("$key=$dq")
	fi
done <"$OUT/queries.tsv"

{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "tree: $(cd "$ROOT" && git rev-parse --short HEAD)$(cd "$ROOT" && git diff --quiet HEAD -- . ':!bench' || echo ' (uncommitted changes outside bench/)')"
	echo "cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) RAM"
	echo "os: $(uname -sr), $(go version | cut -d' ' -f3-)"
	echo "duckdb: $("$DUCK" sql -n 0 -warm 1 "$DB" 'v=SELECT version()' | awk -F'\t' '$1 == "result" { sub(/^[^=]*=/, "", $3); print $3 }')"
	echo "data: t2m f32 730x181x360, chunks 30x181x360, zstd, $(stat -c %s "$TET") bytes; DuckDB table t2m(time, lat, lon INTEGER, value FLOAT), $(stat -c %s "$DB") bytes"
	echo "threshold P99: $p99"
	echo "knobs: ROUNDS=$ROUNDS N=$N SLOW_N=$SLOW_N FRESH=$FRESH ONLY=$ONLY TET_OPTS=$TET_OPTS"
	echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$OUT/machine.txt"
cat "$OUT/machine.txt" >&2

S=$OUT/samples.tsv
: >"$S"
tag() { awk -v p="$1" '{ print p "\t" $0 }' >>"$S"; }
run_tet() { # ROUND
	local out=() warmout=()
	[ "$1" = 1 ] && out=(-out "$OUT/tet")
	[ ${#fast_t[@]} -gt 0 ] && "$AN" sql -n "$N" -warm 1 -timeout "$TIMEOUT" "${out[@]}" "$TET$TET_OPTS" "${fast_t[@]}" | tag "tetsql	warm"
	[ ${#slow_t[@]} -gt 0 ] && "$AN" sql -n "$SLOW_N" -warm 0 -timeout "$TIMEOUT" "${out[@]}" "$TET$TET_OPTS" "${slow_t[@]}" | tag "tetsql	warm"
	return 0
}
run_duck() {
	local out=(-out "$OUT/duck")
	[ ${#fast_d[@]} -gt 0 ] && "$DUCK" sql -n "$N" -warm 1 "${out[@]}" "$DB" "${fast_d[@]}" | tag "duckdb	warm"
	[ ${#slow_d[@]} -gt 0 ] && "$DUCK" sql -n "$SLOW_N" -warm 0 "${out[@]}" "$DB" "${slow_d[@]}" | tag "duckdb	warm"
	return 0
}
# fresh TOOL KEY: one new process running one query once, timed from outside.
fresh() {
	local t0 t1 res
	t0=$(date +%s%N)
	if [ "$1" = tetsql ]; then
		res=$("$AN" sql -n 1 -warm 0 -timeout "$TIMEOUT" "$TET$TET_OPTS" "$2=${tsql[$2]}")
	else
		res=$("$DUCK" sql -n 1 -warm 0 "$DB" "$2=${dsql[$2]}" 2>&1 || echo "error	$2	failed")
	fi
	t1=$(date +%s%N)
	case $res in
	*error*) ;;
	*) printf '%s\tfresh\tsample\t%s\t%.9f\t0\t0\n' "$1" "$2" "$(echo "($t1 - $t0) / 1000000000" | bc -l)" >>"$S" ;;
	esac
}

for r in $(seq 1 "$ROUNDS"); do
	log "round $r of $ROUNDS"
	if [ $((r % 2)) = 1 ]; then run_tet "$r"; run_duck; else run_duck; run_tet "$r"; fi
	for i in $(seq 1 "$FRESH"); do
		for k in "${fresh_keys[@]}"; do
			if [ $(((r + i) % 2)) = 0 ]; then fresh tetsql "$k"; fresh duckdb "$k"; else fresh duckdb "$k"; fresh tetsql "$k"; fi
		done
	done
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/machine.txt"

"$AN" report -queries "$OUT/queries.tsv" -machine "$OUT/machine.txt" -o "$OUT/results.md" "$S" "$OUT/tet" "$OUT/duck"
log "wrote $OUT/results.md"
cat "$OUT/results.md"
