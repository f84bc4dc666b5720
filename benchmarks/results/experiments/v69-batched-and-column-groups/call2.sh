#!/usr/bin/env bash
# Session ab, call 2, on whichever card comes: column groups (v69). Call 1 found the walk's
# output side to matter most: a full column of tiles in flight writes whole output rows,
# while its reads take 256 bytes of each input row a tile, the neighbouring runs a column
# (64 tiles) later. Column groups of W tile columns take their tiles row by row across
# the group (W neighbouring blocks read W x 256 bytes of the same rows) and keep the
# groups' whole columns in flight. Trees (carry .ab): a = the product (HEAD), then the
# working tree (GPUTRANSPOSE_COL_GROUP, read once a process) at b W=1, c W=2, d W=4, e W=8.
# Three alternating rounds of bench_pitches.py. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c2; mkdir -p $G/logs
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
. scripts/gpu-build-env; export PYTHONUNBUFFERED=1
for t in .ab/base .; do
  (cd $t && rm -rf build torch_transpose/_C*.so && MAX_JOBS=8 GPUTRANSPOSE_PTXAS_VERBOSE=1 \
    python3 setup.py build_ext --inplace > $G/logs/build-$(basename $(realpath $t)).log 2>&1; echo "built $t rc $?") &
done
wait; date -u
CASES="uint8:8192x8192 uint8:16384x16384 uint8:4096x32768 uint8:32768x4096 uint8:8191x8192
  uint8:8192x8192:8209 uint8:32x2048x2048 bfloat16:8192x8192 bfloat16:8191x8192 bfloat16:8192x8192:8209
  float32:8192x8192 float32:8191x8192 float64:8192x8192"
tree() { case $1 in a) echo "$PWD/.ab/base" ;; *) echo "$PWD" ;; esac; }
knob() { case $1 in a|b) echo 1 ;; c) echo 2 ;; d) echo 4 ;; e) echo 8 ;; esac; }
for round in 1 2 3; do
  for v in a b c d e; do
    echo "== $v round $round $(date -u +%T)"
    PYTHONPATH=$(tree $v) GPUTRANSPOSE_COL_GROUP=$(knob $v) timeout 100 python3 benchmarks/bench_pitches.py \
      --reps 30 --rounds 3 --tag "$v$round" --out $G/logs/$v$round.json --cases $CASES > $G/logs/$v$round.log 2>&1 ||
      echo "$v$round failed"
  done
done
python3 benchmarks/ab_compare.py --trees a,b,c,d,e $G/logs | tee $G/summary.txt
date -u | tee -a $G/device.txt
(cd $G && tar -czf logs.tgz logs && rm -rf logs)
