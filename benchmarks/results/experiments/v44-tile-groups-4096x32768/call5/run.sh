#!/usr/bin/env bash
# v44 call 5 (H200): tile groups on rows 256 KiB apart (call 4: 8-byte 4096x32768 -0.8 and -1.7% in groups of 16), which v34 (call 7, float32 -1.7%,
# float64 -0.8% at groups of 1-32 tile-rows) had found the one shape faster in groups than in
# whole columns. One build of the working tree; trees by GPUTRANSPOSE_TILE_GROUP: a = unset
# (whole columns), b = 4, c = 8, d = 16 tile-rows. Three rounds of bench_pitches.py
# --rounds 2, then ab_compare. Run from the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../../.."
date -u
G=$OUT/ab; mkdir -p $G/logs
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt
rm -rf build torch_transpose/_C*.so
MAX_JOBS=16 python3 setup.py build_ext --inplace > $G/logs/build.log 2>&1 || { tail -30 $G/logs/build.log; exit 1; }
CASES="float64:4096x32768 complex64:4096x32768 float64:2048x32768 complex64:8192x32768 float32:2048x65536
 bfloat16:2048x131072 uint8:2048x262144 float64:4096x32768:32784 complex128:4096x16384"
for round in 1 2 3; do
  for t in a:0 b:4 c:8 d:16; do
    v=${t%%:*}; k=${t##*:}
    echo "== $v (group $k) round $round"
    GPUTRANSPOSE_TILE_GROUP=$k PYTHONPATH=. python3 benchmarks/bench_pitches.py --tag "$v$round" \
      --out "$G/logs/$v$round.json" --cases $CASES --rounds 2 > "$G/logs/$v$round.log" 2>&1 || echo "$v$round failed"
  done
done
python3 benchmarks/ab_compare.py --trees a,b,c,d "$G/logs" | tee "$G/summary.txt"
tar -czf "$G/logs.tgz" -C "$G" logs && rm -rf "$G/logs"
date -u
