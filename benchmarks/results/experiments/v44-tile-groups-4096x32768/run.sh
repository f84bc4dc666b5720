#!/usr/bin/env bash
# v44 call 4 (H200): tile groups on the 4096x32768 rows, which v34 (call 7, float32 -1.7%,
# float64 -0.8% at groups of 1-32 tile-rows) had found the one shape faster in groups than in
# whole columns. One build of the working tree; trees by GPUTRANSPOSE_TILE_GROUP: a = unset
# (whole columns), b = 8, c = 16, d = 32 tile-rows. Three rounds of bench_pitches.py
# --rounds 2, then ab_compare. Run from the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
date -u
G=$OUT/ab; mkdir -p $G/logs
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt
rm -rf build torch_transpose/_C*.so
MAX_JOBS=16 python3 setup.py build_ext --inplace > $G/logs/build.log 2>&1 || { tail -30 $G/logs/build.log; exit 1; }
CASES="float64:4096x32768 complex64:4096x32768 complex128:4096x32768 float32:4096x32768
 bfloat16:4096x32768 uint8:4096x32768 float64:32768x4096 uint8:8192x8192"
for round in 1 2 3; do
  for t in a:0 b:8 c:16 d:32; do
    v=${t%%:*}; k=${t##*:}
    echo "== $v (group $k) round $round"
    GPUTRANSPOSE_TILE_GROUP=$k PYTHONPATH=. python3 benchmarks/bench_pitches.py --tag "$v$round" \
      --out "$G/logs/$v$round.json" --cases $CASES --rounds 2 > "$G/logs/$v$round.log" 2>&1 || echo "$v$round failed"
  done
done
python3 benchmarks/ab_compare.py --trees a,b,c,d "$G/logs" | tee "$G/summary.txt"
tar -czf "$G/logs.tgz" -C "$G" logs && rm -rf "$G/logs"
date -u
