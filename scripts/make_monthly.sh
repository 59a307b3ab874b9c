#!/usr/bin/env bash
# A year of monthly files for the "many files as one table" examples:
#
#     testdata/era5_monthly/year=2024/month=MM/t2m.tet
#
# Each file holds dataset t2m: f32, (days in month) x 18 x 36 over
# (time, lat, lon), one zstd chunk, time labelled by the month's dates,
# lat and lon by the centres of a 10-degree grid (-85..85, -175..175).
# Values are tetgen's "wave" pattern (about -1..1, a synthetic field, not
# real temperatures), seeded by the month number so months differ.
#
# Deterministic: tetgen writes the same bytes for the same arguments, so a
# rerun reproduces the committed files exactly (git status stays clean).
#
# Usage (from anywhere in the repository):
#     scripts/make_monthly.sh [OUT_DIR]     # default testdata/era5_monthly
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/testdata/era5_monthly}
year=2024

lat=$(seq -85 10 85 | paste -sd, -)
lon=$(seq -175 10 175 | paste -sd, -)

# Build tetgen once instead of compiling it twelve times through go run.
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
(cd "$root" && go build -o "$bin/tetgen" ./cmd/tetgen)

for m in 01 02 03 04 05 06 07 08 09 10 11 12; do
	case $m in
	02) days=29 ;; # 2024 is a leap year
	04 | 06 | 09 | 11) days=30 ;;
	*) days=31 ;;
	esac
	dir=$out/year=$year/month=$m
	mkdir -p "$dir"
	"$bin/tetgen" -o "$dir/t2m.tet" \
		--dataset "t2m:f32:${days}x18x36:${days}x18x36:zstd:time,lat,lon" \
		--labels "t2m.time=dates:$year-$m-01" \
		--labels "t2m.lat=list:$lat" \
		--labels "t2m.lon=list:$lon" \
		--attr "t2m.long_name=synthetic 2 m temperature field" \
		--seed "$((10#$m))"
done
