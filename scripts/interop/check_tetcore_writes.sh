#!/usr/bin/env bash
# Files written by tetcore, read by tet-py (testdata/interop/README.md).
#
# Usage (from anywhere in the repository):
#     scripts/interop/check_tetcore_writes.sh [OUT_DIR]
#
# 1. `go test ./tetcore -run TestInterop_writeForTetPy` with
#    TETSQL_INTEROP_OUT=OUT_DIR writes tetcore_*.tet files plus
#    <file>.expected.json sidecars (values computed in Go).
# 2. scripts/interop/check_reads.py reads every file with tet-py 0.8.3 and
#    compares it bit-exactly with its sidecar.
#
# A sidecar with an "xfail" key marks a known bug (tetcore's or tet-py's):
# that file must FAIL in check_reads.py. If it passes, the bug is gone and
# the marker in tetcore/interop_write_test.go must be removed, so that is an
# error too.
#
# Without OUT_DIR a temporary directory is used and removed afterwards.
# Exit status: 0 all as expected, 1 a file failed (or passed unexpectedly),
# 2 the Go test or the setup failed. Python is only a checking harness here;
# it is not part of the Go build.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
py=${PYTHON:-python3}
export RAYON_NUM_THREADS=${RAYON_NUM_THREADS:-1} # tet-py's Rust pool, shared machine

if [[ $# -gt 1 ]]; then
    echo "usage: $0 [OUT_DIR]" >&2
    exit 2
fi
if [[ $# -eq 1 ]]; then
    out=$1
    mkdir -p "$out"
    rm -f "$out"/tetcore_*.tet "$out"/tetcore_*.tet.expected.json
else
    out=$(mktemp -d "${TMPDIR:-/tmp}/tetcore-interop.XXXXXX")
    trap 'rm -rf "$out"' EXIT
fi
out=$(cd "$out" && pwd)

if ! "$py" -c 'import tet' 2>/dev/null; then
    echo "tet-py is missing: pip install tet-py==0.8.3" >&2
    exit 2
fi

echo "== writing with tetcore into $out"
if ! (cd "$repo" && TETSQL_INTEROP_OUT="$out" go test ./tetcore -run '^TestInterop_writeForTetPy$' -count=1 -v) \
    | grep -E '^(=== RUN|--- |\s+interop_write_test|ok|FAIL|PASS)'; then
    echo "go test failed" >&2
    exit 2
fi

shopt -s nullglob
files=("$out"/*.tet)
if [[ ${#files[@]} -eq 0 ]]; then
    echo "go test wrote no .tet files (was the test skipped?)" >&2
    exit 2
fi

echo "== reading with tet-py ($("$py" -c 'import tet; print(tet.__version__)'))"
pass=0 xfail=0 bad=0
for f in "${files[@]}"; do
    note=$("$py" -c 'import json, sys; print(json.load(open(sys.argv[1], encoding="utf-8")).get("xfail", ""))' \
        "$f.expected.json")
    set +e
    "$py" "$repo/scripts/interop/check_reads.py" "$f"
    rc=$?
    set -e
    if [[ -z $note ]]; then
        if [[ $rc -eq 0 ]]; then pass=$((pass + 1)); else bad=$((bad + 1)); fi
    elif [[ $rc -eq 1 ]]; then
        echo "  XFAIL (expected): $note"
        xfail=$((xfail + 1))
    elif [[ $rc -eq 0 ]]; then
        echo "  XPASS: $(basename "$f") passed but is marked xfail ($note): remove the marker" \
            "in tetcore/interop_write_test.go and update testdata/interop/README.md"
        bad=$((bad + 1))
    else
        bad=$((bad + 1))
    fi
done

echo "== spec check without tet-py (tetlib.parse_tet + zstd CLI decode, every bit incl. NaN payloads)"
if ! INTEROP_DIR="$repo/scripts/interop" "$py" - "${files[@]}" <<'PY'; then
import json, os, sys
from pathlib import Path
sys.dont_write_bytecode = True
sys.path.insert(0, os.environ["INTEROP_DIR"])
import numpy as np
import tetlib
bad = 0
for name in sys.argv[1:]:
    side = json.loads(Path(name + ".expected.json").read_text(encoding="utf-8"))
    try:
        p = tetlib.parse_tet(name)
        arrays = tetlib.read_chunks(name, p)
    except Exception as exc:  # SpecError, zstd failure
        print(f"FAIL {Path(name).name}: {type(exc).__name__}: {exc}")
        bad += 1
        continue
    errs = [f"note: {n}" for n in p.notes] + [f"payload gap {g}" for g in p.payload_gaps]
    for ds in side["datasets"]:
        want = tetlib.decode_expected(ds)
        view = tetlib.BITS_VIEW.get(ds["dtype"], want.dtype.str)
        got = arrays[ds["name"]]
        if got.shape != want.shape or not np.array_equal(got.view(view), want.view(view)):
            errs.append(f"{ds['name']}: decoded bytes differ from the sidecar")
    print(("FAIL " if errs else "OK   ") + Path(name).name + "".join("\n  - " + e for e in errs))
    bad += bool(errs)
sys.exit(1 if bad else 0)
PY
    bad=$((bad + 1))
fi

echo "== ${#files[@]} files: $pass passed, $xfail failed as expected (xfail), $bad unexpected"
[[ $bad -eq 0 ]] || exit 1
