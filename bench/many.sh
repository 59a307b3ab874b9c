#!/usr/bin/env bash
# bench/many.sh: a glob of 2,000 tiny files opened as one table and counted,
# by the built CLI, against 200 of the same files: wall time and peak RSS
# and CPU time (/usr/bin/time; the table shows medians, and the largest
# RSS seen). See
# docs/PERFORMANCE.md, "Many files".
#
#   bench/many.sh                  # files and results in a new temp dir
#   OUT=/tmp/mb ROUNDS=5 bench/many.sh
#
# Environment: OUT (work dir, default a new temp dir), ROUNDS (default 9).
# Each round runs every (query, file count) pair once, in a fresh process,
# alternating which file count goes first, so both medians come from the
# same stretch of time on a noisy machine.
#
# Files: OUT/many/part=PP/fNNNN.tet, 100 per directory (part=00 … part=19),
# each dataset v, f32 24×10×10 (time, y, x; time labelled by dates), one
# zstd chunk, about 5.8 KB: copies of 20 files written by tetgen with seeds
# 1 … 20 (copying keeps the set-up short; the values do not matter here).
# The 200-file glob is OUT/many/part=0[01]/*.tet, a subset of the same files.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/tetsql-many.XXXXXX")}
ROUNDS=${ROUNDS:-9}
mkdir -p "$OUT/bin"
OUT=$(cd "$OUT" && pwd)
log() { printf '== %s\n' "$*" >&2; }

log "building into $OUT/bin"
(cd "$REPO" && go build -o "$OUT/bin/tetgen" ./cmd/tetgen && go build -o "$OUT/bin/tetsql" ./cmd/tetsql)
TETSQL=$OUT/bin/tetsql

if [ ! -e "$OUT/many/part=19/f1999.tet" ]; then
	log "writing 2,000 files under $OUT/many"
	mkdir -p "$OUT/seed"
	for s in $(seq 1 20); do
		"$OUT/bin/tetgen" -o "$OUT/seed/s$s.tet" --dataset 'v:f32:24x10x10:24x10x10:zstd:time,y,x' \
			--labels 'v.time=dates:2024-01-01' --seed "$s"
	done
	for i in $(seq 0 1999); do
		d=$(printf '%s/many/part=%02d' "$OUT" $((i / 100)))
		mkdir -p "$d"
		cp "$OUT/seed/s$((i % 20 + 1)).tet" "$(printf '%s/f%04d.tet' "$d" "$i")"
	done
fi

glob_of() { # file count -> glob
	case $1 in
	200) echo "$OUT/many/part=0[01]/*.tet" ;;
	2000) echo "$OUT/many/**/*.tet" ;;
	esac
}

# Queries: key, table kind, SQL. "cells" and "agg" count; "scan" reads
# every value of every file row by row (the memory case); "one" lists the
# same files but reads one (the baseline of "scan": what the list costs).
# Kind "glob" passes the glob as the shell's file argument instead of
# creating table m: the shell first opens every file once to find its
# datasets, then the query runs on tables v and v_agg.
QUERIES=(
	"cells|cells|SELECT count(*) FROM m"
	"agg|agg|SELECT count FROM m"
	"scan|cells|SELECT sum(value) FROM m"
	"one|cells|SELECT sum(value) FROM m WHERE file = '$OUT/many/part=00/f0000.tet'"
	"glob_cells|glob|SELECT count(*) FROM v"
	"glob_agg|glob|SELECT count FROM v_agg"
)

SAMPLES=$OUT/samples.tsv
printf 'query\tfiles\tround\twall_s\tcpu_s\tmaxrss_kb\tresult\n' >"$SAMPLES"
run1() { # key kind sql files round
	local kind=$2 sql=$3 files=$4 round=$5 opt=""
	[ "$kind" = agg ] && opt=", 'kind=agg'"
	local t0 t1 rss
	t0=$(date +%s%N)
	if [ "$kind" = glob ]; then
		/usr/bin/time -f '%M %U %S' -o "$OUT/time.txt" "$TETSQL" --no-header "$(glob_of "$files")" "$sql" >"$OUT/result.txt"
	else
		/usr/bin/time -f '%M %U %S' -o "$OUT/time.txt" "$TETSQL" --no-header \
			-c "CREATE VIRTUAL TABLE m USING tet_many('$(glob_of "$files")', 'v'$opt)" -c "$sql" >"$OUT/result.txt"
	fi
	t1=$(date +%s%N)
	wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')
	read -r rss usr sys <"$OUT/time.txt"
	cpu=$(awk -v u="$usr" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$files" "$round" "$wall" "$cpu" "$rss" "$(tr -d '\n' <"$OUT/result.txt")" >>"$SAMPLES"
}

log "$ROUNDS rounds"
for r in $(seq 1 "$ROUNDS"); do
	order="200 2000"
	[ $((r % 2)) = 0 ] && order="2000 200"
	for q in "${QUERIES[@]}"; do
		IFS='|' read -r key kind sql <<<"$q"
		for n in $order; do run1 "$key" "$kind" "$sql" "$n" "$r"; done
	done
done

{
	echo "date: $(date -u +%FT%TZ)  nproc: $(nproc)  go: $(go version | cut -d' ' -f3)  rounds: $ROUNDS"
	printf '%-10s %6s %9s %9s %9s %9s  %s\n' query files "wall ms" "CPU ms" "RSS MiB" "max RSS" result
	awk -F'\t' 'NR > 1 { k = $1 "\t" $2; w[k] = w[k] " " $4; c[k] = c[k] " " $5; m[k] = m[k] " " $6; res[k] = $7 }
		END { for (k in w) print k "\t" w[k] "\t" c[k] "\t" m[k] "\t" res[k] }' "$SAMPLES" | sort -t$'\t' -k1,1 -k2,2n |
		while IFS=$'\t' read -r key files walls cpus rsss result; do
			med() { tr ' ' '\n' | grep . | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
			mx() { tr ' ' '\n' | grep . | sort -g | tail -1; }
			printf '%-10s %6s %9.0f %9.0f %9.1f %9.1f  %s\n' "$key" "$files" \
				"$(echo "$walls" | med | awk '{ print $1 * 1000 }')" \
				"$(echo "$cpus" | med | awk '{ print $1 * 1000 }')" \
				"$(echo "$rsss" | med | awk '{ print $1 / 1024 }')" \
				"$(echo "$rsss" | mx | awk '{ print $1 / 1024 }')" "$result"
		done
} | tee "$OUT/results.txt"
log "samples in $SAMPLES"
