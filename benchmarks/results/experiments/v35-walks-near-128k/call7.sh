#!/usr/bin/env bash
# v35 device call 7 (carry .ab): what the odd kernels' shifts cost, by oracles (output wrong
# on purpose, timed only; shift-oracles.md says how each tree was made): a = HEAD (.ab/base);
# b = staged pieces read without their funnel shift (the second staged word and the SHF);
# c = skewed stores without their shift (the second shared-memory unit and bytes_at);
# d = both. benchmarks/results/experiments/v27-odd-pitch-oracles/otime.py times each tree against the copy, three rounds a, b, c, d.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
ROOT=$PWD
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
G=${OUT:-$ROOT/ab-out}/v35-7; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
for t in base b c d; do
  (cd $ROOT/.ab/$t && rm -rf build torch_transpose/_C*.so && MAX_JOBS=4 python3 setup.py build_ext --inplace \
     > /tmp/build-$t.log 2>&1; echo "$t built rc $?") &
done
wait
CASES="uint8/8191x8193 uint8/8192x8209[:,:-17] uint8/8191x8192 bfloat16/8191x8193 uint8/8192x8192"
for round in 1 2 3; do
  for v in a b c d; do
    t=$v; [ $v = a ] && t=base
    PYTHONPATH=$ROOT/.ab/$t timeout 120 python3 benchmarks/results/experiments/v27-odd-pitch-oracles/otime.py $v$round $CASES >> $G/otime.jsonl 2>>$G/otime.err || echo "$v $round failed"
  done
done
python3 benchmarks/results/experiments/v27-odd-pitch-oracles/ocmp.py $G/otime.jsonl a,b,c,d | tee $G/summary.txt
date -u | tee -a $G/device.txt
