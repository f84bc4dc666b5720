#!/usr/bin/env bash
# Session 2026-11-22 j, device call 3: v33 (cut micro-blocks: staged ones read whole, 4-/8-byte
# by cp.async, 2-byte word-loaded a column at a time, in aligned-store tiles too) against HEAD:
# CUDA tests, then an A/B of odd-column shapes and the suite rows of the touched kernels.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
G=$OUT/v33; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
(cd $ROOT/.ab/base && rm -rf build torch_transpose/_C*.so && MAX_JOBS=8 python3 setup.py build_ext --inplace > /tmp/build-a.log 2>&1; echo "a built rc $?") &
(rm -rf build torch_transpose/_C*.so; MAX_JOBS=8 python3 setup.py build_ext --inplace > /tmp/build.log 2>&1; echo "b built rc $?")
wait
GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$ROOT timeout 260 python3 -m pytest -q -x -m cuda tests/test_transpose_cuda.py tests/test_fuzz.py 2>&1 | tail -4 | tee $G/pytest-tail.txt
CASES="uint8/8192,8193,8193 uint8/8192,8177,8177 uint8/16384,16383,16383 uint8/8192,8193,8208 uint8/8192,8192,8209
 uint8/8191,8193,8193 uint8/8192,8192,8192 bfloat16/8192,8193,8193 bfloat16/8192,8191,8191 bfloat16/8192,8192,8209
 bfloat16/8191,8193,8193 float32/8192,8193,8193 float32/8192,8192,8192 float32/8192,8192,8209 float64/8192,8193,8193
 float64/32768,4096,4096 float64/8192,8192,8192 complex128/8192,8193,8193"
for round in 1 2; do
  (cd $ROOT/.ab/base && PYTHONPATH=$ROOT/.ab/base timeout 100 python3 $ROOT/.ab/ptime2.py a $CASES) >> $G/ab.jsonl
  PYTHONPATH=$ROOT timeout 100 python3 .ab/ptime2.py b $CASES >> $G/ab.jsonl
done
python3 .ab/pcmp.py $G/ab.jsonl | tee $G/ab-summary.txt
cd $OUT && tar czf v33-call3.tgz v33; date -u
