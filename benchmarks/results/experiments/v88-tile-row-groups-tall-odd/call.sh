#!/usr/bin/env bash
# Session af probe: tall inputs whose rows start anywhere, walked in groups of G tile-rows
# (GPUTRANSPOSE_TILE_GROUP, read once a process) rather than down whole columns. Down a
# whole column of a tall matrix, a tile's right-hand neighbour (which reads the 128-byte
# lines the two share) comes a whole column later: more than the tiles in flight, so the
# shared lines may have left L2 (v83: a split line read two waves later costs 7-31%).
# The product (commit 749fb51's code), one process per G, G = 0 (whole columns, the
# product's walk) first and last as the drift control. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/groups; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
rm -rf build torch_transpose/_C*.so
MAX_JOBS=16 python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "build rc $?"
cases="uint8:65536x2049 uint8:32768x4097 bfloat16:32768x4097 float32:32768x4097 float64:32768x4097
  uint8:65536x2048 uint8:8192x8192:8209 uint8:16384x16384:16401 bfloat16:8192x8192:8209"
run=0
for g in 0 32 16 8 0; do
  run=$((run + 1))
  GPUTRANSPOSE_TILE_GROUP=$g timeout 110 python3 benchmarks/bench_pitches.py --rounds 3 --tag G$g \
    --out $G/run$run-G$g.json --cases $cases > $G/run$run-G$g.log 2>&1
  echo "run $run G=$g rc $?"; grep -vE "^\[|dtype|driver" $G/run$run-G$g.log
done
date -u | tee -a $G/device.txt
(cd $G && tar -czf logs.tgz *.log && rm -f *.log)
ls $G
