#!/usr/bin/env bash
# Session 2026-11-25 t, device call 1 (an H200). (1) v47's release rule for the wide-element
# kernel: tree a = commit 8a917c7 (v46's rule, in .ab/base: scripts/ab-bench prepare), b =
# the working tree; both built, b's wide-element tests run, then in alternating rounds
# l2_after_op.py and wide_release_time.py on elements whose input runs end mid-line (144,
# 272 bytes) and controls. (2) Copies of the same input rows with no transpose
# (bench_pitches.py --untransposed, tree b): what the odd pitches cost a copy.
# Carry .ab. From the repository root.
set -uo pipefail
ROOT=$PWD
X=benchmarks/results/experiments/v47-wide-releases
G=$OUT/c1; mkdir -p $G/logs
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
. scripts/gpu-build-env
for v in a b; do
  d=$ROOT; [ $v = a ] && d=$ROOT/.ab/base
  (cd $d && rm -rf build torch_transpose/_C*.so && MAX_JOBS=8 GPUTRANSPOSE_PTXAS_VERBOSE=1 \
     python3 setup.py build_ext --inplace > $G/logs/build-$v.log 2>&1; echo "built $v rc $?") &
done
wait; date -u
grep -A2 "wide_element" $G/logs/build-b.log | grep -E "Used|spill" | sort | uniq -c | head
export PYTHONUNBUFFERED=1
GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$ROOT timeout 150 python3 -m pytest tests -q -p no:cacheprovider \
  -k "wide or dims or evict" > $G/pytest-wide.log 2>&1; echo "pytest wide rc $?"; tail -2 $G/pytest-wide.log
for round in 1 2; do
  for v in a b; do
    d=$ROOT; [ $v = a ] && d=$ROOT/.ab/base
    for spec in "float32 8x2048x32x68:1,2 8x2048x32x36:1,2" "bfloat16 8x2048x32x72:1,2 8x2048x32x136:1,2 8x2048x32x128:1,2"; do
      set -- $spec; dt=$1; shift
      PYTHONPATH=$d:$ROOT/benchmarks timeout 100 python3 benchmarks/l2_after_op.py --dtypes $dt --shapes "$@" \
        --out $G/logs/l2-$v$round-$dt.json > $G/logs/l2-$v$round-$dt.txt 2>&1 || echo "l2 $v$round $dt failed"
      sed "s/^/$v$round /" $G/logs/l2-$v$round-$dt.txt | grep -vE "dtype|^$"
    done
    PYTHONPATH=$d:$ROOT/benchmarks timeout 120 python3 $X/wide_release_time.py $v$round > $G/logs/time-$v$round.jsonl 2>&1 \
      || echo "time $v$round failed"
    python3 -c "
import json
for l in open('$G/logs/time-$v$round.jsonl'):
    r=json.loads(l); print(f\"{r['tag']} time {r['dtype']:9} {r['shape']:16} {r['ours_us']:8.1f} us {r['ours_over_copy']:.3f}x\")"
  done
done
date -u
PYTHONPATH=$ROOT timeout 200 python3 benchmarks/bench_pitches.py --untransposed --out $G/pitched-copies.json --cases \
  uint8:8192x8192 uint8:8192x8192:8209 uint8:8192x8192:8193 uint8:8192x8192:8208 uint8:8191x8193 \
  bfloat16:8192x8192:8209 bfloat16:8192x8192:8193 float32:8192x8192:8209 2>&1 | tee $G/pitched-copies.txt
date -u | tee -a $G/device.txt
(cd $G && tar czf ../c1-logs.tgz logs) && rm -rf $G/logs
