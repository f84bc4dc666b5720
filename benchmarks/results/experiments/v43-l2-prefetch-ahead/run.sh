#!/usr/bin/env bash
# v43 call 1: one build of the working tree (cf250ce + a prefetch knob): each block asks L2
# for the input rows of the tile of the block GPUTRANSPOSE_PREFETCH_X8 eighths of a wave of
# resident blocks after it (cp.async.bulk.prefetch.L2, a row each). Trees by knob: a = 0
# (off), b = 4 (half a wave ahead), c = 8 (a wave), d = 16 (two waves). Three rounds of
# bench_pitches.py --rounds 2, then ab_compare. Run from the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
date -u
G=$OUT/ab; mkdir -p $G/logs
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt
rm -rf build torch_transpose/_C*.so
MAX_JOBS=16 GPUTRANSPOSE_PTXAS_VERBOSE=1 python3 setup.py build_ext --inplace > $G/logs/build.log 2>&1 || { tail -30 $G/logs/build.log; exit 1; }
echo "built; $(grep -c '[1-9][0-9]* bytes spill stores' $G/logs/build.log) kernels with spills"
CASES="uint8:8191x8193 uint8:8192x8192:8209 uint8:8191x8192 uint8:8192x8192
 bfloat16:8191x8193 bfloat16:8192x8192:8209 float32:8191x8193 float64:4096x32768"
for round in 1 2 3; do
  for t in a:0 b:4 c:8 d:16; do
    v=${t%%:*}; k=${t##*:}
    echo "== $v (x8 = $k) round $round"
    GPUTRANSPOSE_PREFETCH_X8=$k PYTHONPATH=. python3 benchmarks/bench_pitches.py --tag "$v$round" \
      --out "$G/logs/$v$round.json" --cases $CASES --rounds 2 > "$G/logs/$v$round.log" 2>&1 || echo "$v$round failed"
  done
done
python3 benchmarks/ab_compare.py --trees a,b,c,d "$G/logs" | tee "$G/summary.txt"
GPUTRANSPOSE_PREFETCH_X8=8 GPUTRANSPOSE_REQUIRE_CUDA=1 timeout 300 python3 -m pytest tests/test_transpose_cuda.py -q \
  -p no:cacheprovider -k "odd or unaligned or slice or larger_than_l2 or evict_last" > $G/logs/pytest.log 2>&1
echo "pytest (x8 = 8) rc $?"; tail -2 $G/logs/pytest.log
tar -czf "$G/logs.tgz" -C "$G" logs && rm -rf "$G/logs"
date -u
