#!/usr/bin/env bash
# bench/export.sh: Parquet export, tetsql (fast path, ordinary path, CSV)
# against DuckDB's COPY … TO 'x.parquet' on the same values, in one run.
# See bench/README.md ("Parquet export against DuckDB's COPY").
#
# Knobs (environment):
#   OUT=DIR        results and scratch (default: a new /tmp/export.XXXX);
#                  big.tet and small.tet in DIR are reused
#   ROUNDS=3       rounds; each times every tool once per file, the order
#                  reversed every other round
#   N=3            timed exports per round in the warm processes (tetsql's
#                  exportpath; DuckDB's COPY, per thread setting)
#   BIG=5000x4000  SMALL=2000x1000   grid shapes (chunks 500x500, zstd, wave pattern)
#   GOBENCH=1      also run BenchmarkWriteParquet (-count 6) and benchstat it (0: skip)
#   PYTHON=python3 needs duckdb and pyarrow
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$(mktemp -d /tmp/export.XXXX)}
ROUNDS=${ROUNDS:-3} N=${N:-3} BIG=${BIG:-5000x4000} SMALL=${SMALL:-2000x1000}
GOBENCH=${GOBENCH:-1} PY=${PYTHON:-python3}
HELPER=$ROOT/bench/export_duck.py
mkdir -p "$OUT/bin"
log() { echo "[$(date -u +%H:%M:%S)] $*" >&2; }

Q_FAST='SELECT y, x, value FROM grid'
# The same rows, but SQLite evaluates a WHERE term per row, so the plan is
# not a plain projection and the export reads rows through database/sql.
# (value = value is false only for NaN, which the wave pattern has none
# of, and value is never NULL; the checks below confirm the same rows.)
Q_ORD='SELECT y, x, value FROM grid WHERE value = value OR value IS NULL'
Q_TOTALS='SELECT count(*), total(value), total(abs(value)), total(y), total(x) FROM grid'

log "building tetsql, tetgen, exportpath into $OUT/bin"
(cd "$ROOT" && go build -o "$OUT/bin/" ./cmd/tetsql ./cmd/tetgen ./bench/exportpath)
TETSQL=$OUT/bin/tetsql
"$PY" -c 'import duckdb, pyarrow' || { echo "export.sh: needs python3 with duckdb and pyarrow" >&2; exit 1; }

sizes=(big small)
declare -A shape=([big]=$BIG [small]=$SMALL)
for s in "${sizes[@]}"; do
	f=$OUT/$s.tet
	mkdir -p "$OUT/$s"
	if [ ! -s "$f" ]; then
		log "generating $f (grid f32 ${shape[$s]}, chunks 500x500, zstd, wave)"
		/usr/bin/time -f "tetgen $s: %e s, %M KiB" "$OUT/bin/tetgen" -o "$f" \
			--dataset "grid:f32:${shape[$s]}:500x500:zstd:y,x" --pattern wave
	fi
done

: >"$OUT/totals.tsv"
: >"$OUT/paths.txt"
for s in "${sizes[@]}"; do
	f=$OUT/$s.tet
	"$TETSQL" --csv --no-header "$f" "$Q_TOTALS" | tr ',' '\t' | sed "s/^/$s\t/" >>"$OUT/totals.tsv"
	{
		echo "== EXPLAIN $Q_FAST"
		"$TETSQL" --csv "$f" "EXPLAIN $Q_FAST"
		echo "== EXPLAIN $Q_ORD"
		"$TETSQL" --csv "$f" "EXPLAIN $Q_ORD"
	} >"$OUT/explain-$s.txt"
	# The fast query must qualify for the fast path and the ordinary one must not.
	pf=$("$OUT/bin/exportpath" "$f" "$Q_FAST") po=$("$OUT/bin/exportpath" "$f" "$Q_ORD")
	echo "$s fast query: $pf; ordinary query: $po" | tee -a "$OUT/paths.txt" >&2
	case "$pf|$po" in
	*fast=true*"|"*fast=false*) ;;
	*) echo "export.sh: the queries do not take the paths they are meant to" >&2; exit 1 ;;
	esac
	if [ ! -s "$OUT/$s/grid.duckdb" ] || [ "$OUT/$s/grid.duckdb" -ot "$f" ]; then
		log "loading $s into DuckDB (from tetsql's Parquet; untimed)"
		"$TETSQL" -o "$OUT/$s/load.parquet" "$f" "$Q_FAST"
		"$PY" "$HELPER" load "$OUT/$s/load.parquet" "$OUT/$s/grid.duckdb"
	fi
done

{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "tree: $(cd "$ROOT" && git rev-parse --short HEAD)$(cd "$ROOT" && git diff --quiet HEAD -- . ':!bench' || echo ' (uncommitted changes outside bench/)')"
	echo "cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) RAM"
	echo "os: $(uname -sr), $(go version | cut -d' ' -f3-)"
	echo "python: $("$PY" -c 'import sys, duckdb, pyarrow; print(sys.version.split()[0], "duckdb", duckdb.__version__, "pyarrow", pyarrow.__version__)')"
	echo "duckdb threads (default): $("$PY" -c 'import duckdb; print(duckdb.connect().execute("SELECT current_setting(\x27threads\x27)").fetchone()[0])')"
	for s in "${sizes[@]}"; do
		echo "data $s: grid f32 ${shape[$s]}, chunks 500x500, zstd, wave; $(stat -c %s "$OUT/$s.tet") bytes .tet; DuckDB file $(stat -c %s "$OUT/$s/grid.duckdb") bytes"
	done
	echo "fast query: $Q_FAST"
	echo "ordinary query: $Q_ORD"
	echo "knobs: ROUNDS=$ROUNDS N=$N"
	echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$OUT/machine.txt"
cat "$OUT/machine.txt" >&2

S=$OUT/samples.tsv
: >"$S"
: >"$OUT/time-v.txt"
# timed SIZE TOOL ROUND OUTFILE CMD...: one fresh process, wall time from
# outside (date), peak RSS and CPU from /usr/bin/time -v.
timed() {
	local s=$1 tool=$2 r=$3 outf=$4 t0 t1 rss cpu bytes=0
	shift 4
	t0=$(date +%s%N)
	/usr/bin/time -v -o "$OUT/time.txt" "$@" >/dev/null
	t1=$(date +%s%N)
	{ echo "== $s $tool round $r: $*"; cat "$OUT/time.txt"; } >>"$OUT/time-v.txt"
	rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$OUT/time.txt")
	cpu=$(awk -F': ' '/User time/ {u = $2} /System time/ {t = $2} END {print u + t}' "$OUT/time.txt")
	[ -n "$outf" ] && bytes=$(stat -c %s "$outf")
	printf '%s\t%s\t%s\t%.6f\t%s\t%s\t%s\n' "$s" "$tool" "$r" "$(echo "($t1 - $t0) / 1000000000" | bc -l)" "$rss" "$cpu" "$bytes" >>"$S"
}
step() { # SIZE TOOL ROUND
	local s=$1 d=$OUT/$1 f=$OUT/$1.tet
	case $2 in
	tet-fast) timed "$s" "$2" "$3" "$d/fast.parquet" "$TETSQL" -o "$d/fast.parquet" "$f" "$Q_FAST" ;;
	tet-nocache) timed "$s" "$2" "$3" "$d/nocache.parquet" "$TETSQL" --cache-budget 0 -o "$d/nocache.parquet" "$f" "$Q_FAST" ;;
	tet-ordinary) timed "$s" "$2" "$3" "$d/ord.parquet" "$TETSQL" -o "$d/ord.parquet" "$f" "$Q_ORD" ;;
	tet-csv) timed "$s" "$2" "$3" "$d/out.csv" "$TETSQL" -o "$d/out.csv" "$f" "$Q_FAST" ;;
	duck-fresh) timed "$s" "$2" "$3" "$d/duck-fresh.parquet" "$PY" "$HELPER" fresh "$d/grid.duckdb" "$d/duck-fresh.parquet" ;;
	py-baseline) timed "$s" "$2" "$3" "" "$PY" -c 'import duckdb; duckdb.connect().close()' ;;
	tet-warm) "$OUT/bin/exportpath" -n "$N" -o "$d/warm.parquet" -tag tet-warm -round "$3" "$f" "$Q_FAST" | sed "s/^/$s\t/" >>"$S" ;;
	duck-warm) "$PY" "$HELPER" warm "$d/load.parquet" "$d/duck-warm.parquet" "$N" "$3" 2>>"$OUT/duck-warm.log" | sed "s/^/$s\t/" >>"$S" ;;
	esac
}

tools=(tet-fast duck-fresh tet-ordinary duck-warm tet-csv tet-nocache tet-warm py-baseline)
for r in $(seq 1 "$ROUNDS"); do
	order=("${tools[@]}")
	if [ $((r % 2)) = 0 ]; then
		order=()
		for ((i = ${#tools[@]} - 1; i >= 0; i--)); do order+=("${tools[$i]}"); done
	fi
	for s in small big; do
		log "round $r of $ROUNDS, $s: ${order[*]} (load $(cut -d' ' -f1 /proc/loadavg))"
		for t in "${order[@]}"; do step "$s" "$t" "$r"; done
	done
done
echo "load average at end of timing: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/machine.txt"

log "checking every output file"
: >"$OUT/checks.tsv"
for s in "${sizes[@]}"; do
	d=$OUT/$s
	"$PY" "$HELPER" check "tetsql fast.parquet=$d/fast.parquet" "tetsql ord.parquet=$d/ord.parquet" \
		"tetsql out.csv=$d/out.csv" "tetsql no cache=$d/nocache.parquet" "tetsql warm=$d/warm.parquet" "duckdb fresh COPY=$d/duck-fresh.parquet" "duckdb warm COPY=$d/duck-warm.parquet" |
		sed "s/^/$s\t/" >>"$OUT/checks.tsv"
done

status=0
"$PY" "$HELPER" report "$S" "$OUT/checks.tsv" "$OUT/machine.txt" "$OUT/totals.tsv" >"$OUT/results.md" || status=$?
{
	echo
	echo "## Path checks and plans"
	echo
	echo '`exportpath` (NewExport + WriteParquet to a discarded writer; `fast` is Export.Fast):'
	echo
	echo '```'
	cat "$OUT/paths.txt"
	echo '```'
	echo
	echo "EXPLAIN of the small file ($OUT/explain-small.txt; the big file's: explain-big.txt):"
	echo
	echo '```'
	cat "$OUT/explain-small.txt"
	echo '```'
} >>"$OUT/results.md"

if [ "$GOBENCH" = 1 ]; then
	log "go test -run XXX -bench WriteParquet -count 6 (load $(cut -d' ' -f1 /proc/loadavg))"
	(cd "$ROOT" && go test -run XXX -bench 'WriteParquet' -count 6 .) >"$OUT/gobench.txt"
	{
		echo
		echo "## BenchmarkWriteParquet (\`go test -run XXX -bench WriteParquet -count 6 .\`, benchstat)"
		echo
		echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
		echo
		echo '```'
		if command -v benchstat >/dev/null; then benchstat "$OUT/gobench.txt"; else grep -E '^(Benchmark|goos|goarch|cpu)' "$OUT/gobench.txt"; fi
		echo '```'
	} >>"$OUT/results.md"
fi
log "wrote $OUT/results.md"
cat "$OUT/results.md"
exit $status
