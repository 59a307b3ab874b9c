#!/bin/sh
# Tensogram decode, pure Go (package tgm) against the reference package
# (tensogram on PyPI, ECMWF's Rust library), one core each, on the same
# files. See README.md.
#
#   bench/tgm/run.sh                        # files in /tmp/tgmbench, 3 rounds of 5 passes
#   DIR=/tmp/x ROUNDS=5 REPS=5 bench/tgm/run.sh
#   CASES="zstd_f32 sp16" bench/tgm/run.sh
#
# Each round runs gobench then pydecode over every case (the order of the
# two flips each round), so both tools are measured in the same stretch of
# time; the table holds medians over ROUNDS*REPS passes.
set -eu
cd "$(dirname "$0")/../.."
DIR=${DIR:-/tmp/tgmbench}
ROUNDS=${ROUNDS:-3}
REPS=${REPS:-5}
MESSAGES=${MESSAGES:-24}
CASES=${CASES:-"none_f32 zstd_f32 lz4_f32 shuffle_zstd_f32 zstd_f64 sp16 sp16_zstd sp24 sp24_zstd blosc2_lz4_f32 blosc2_zstd_f32 nanmask_zstd_f32"}
OUT=${OUT:-$DIR/samples.tsv}

python3 bench/tgm/make_bench.py --messages "$MESSAGES" "$DIR"
go build -o "$DIR/gobench" ./bench/tgm/gobench
export TENSOGRAM_THREADS=1
: > "$OUT"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	echo "round $r of $ROUNDS" >&2
	if [ $((r % 2)) -eq 1 ]; then
		GOMAXPROCS=1 "$DIR/gobench" -reps "$REPS" "$DIR" $CASES >> "$OUT"
		python3 bench/tgm/pydecode.py --reps "$REPS" "$DIR" $CASES >> "$OUT"
	else
		python3 bench/tgm/pydecode.py --reps "$REPS" "$DIR" $CASES >> "$OUT"
		GOMAXPROCS=1 "$DIR/gobench" -reps "$REPS" "$DIR" $CASES >> "$OUT"
	fi
	r=$((r + 1))
done
python3 bench/tgm/report.py "$OUT" "$DIR"
