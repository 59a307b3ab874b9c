#!/bin/sh
# Blosc2 chunk decode, pure Go (internal/codec/blosc) against the C library
# (python-blosc2), one core each, on the same files. See README.md.
#
#   bench/b2nd/run.sh                       # files in /tmp/b2bench, 3 rounds of 5 passes
#   DIR=/tmp/x ROUNDS=5 REPS=5 bench/b2nd/run.sh
#   CASES="zstd_shuffle lz4_shuffle" bench/b2nd/run.sh
#
# Each round runs gobench then pydecode over every case (the order of the
# two flips each round), so both tools are measured in the same stretch of
# time; the table holds medians over ROUNDS*REPS passes.
set -eu
cd "$(dirname "$0")/../.."
DIR=${DIR:-/tmp/b2bench}
ROUNDS=${ROUNDS:-3}
REPS=${REPS:-5}
MB=${MB:-96}
CASES=${CASES:-"blosclz_shuffle lz4_shuffle lz4hc_shuffle zlib_shuffle zstd_shuffle zstd_bitshuffle zstd_bytedelta zstd_delta_shuffle zstd_nofilter lz4_bitshuffle blosclz_nofilter lz4_shuffle_i32 zstd_shuffle_i32"}
OUT=${OUT:-$DIR/samples.tsv}

python3 bench/b2nd/make_bench.py --mb "$MB" "$DIR"
go build -o "$DIR/gobench" ./bench/b2nd/gobench
: > "$OUT"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	echo "round $r of $ROUNDS" >&2
	if [ $((r % 2)) -eq 1 ]; then
		GOMAXPROCS=1 "$DIR/gobench" -reps "$REPS" "$DIR" $CASES >> "$OUT"
		python3 bench/b2nd/pydecode.py --reps "$REPS" "$DIR" $CASES >> "$OUT"
	else
		python3 bench/b2nd/pydecode.py --reps "$REPS" "$DIR" $CASES >> "$OUT"
		GOMAXPROCS=1 "$DIR/gobench" -reps "$REPS" "$DIR" $CASES >> "$OUT"
	fi
	r=$((r + 1))
done
python3 bench/b2nd/report.py "$OUT"
