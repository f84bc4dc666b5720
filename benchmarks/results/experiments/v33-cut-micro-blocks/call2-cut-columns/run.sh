#!/usr/bin/env bash
# Session 2026-11-22 j, device call 2: is it the partial last tile-column? Views of pitch-P
# matrices with and without one; per-block traces (.ab/tr: HEAD + GPUTRANSPOSE_TRACE).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
G=$OUT/v33; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
(cd $ROOT/.ab/tr && rm -rf build torch_transpose/_C*.so && MAX_JOBS=8 python3 setup.py build_ext --inplace > /tmp/build-tr.log 2>&1; echo "tr built rc $?") &
(rm -rf build torch_transpose/_C*.so; MAX_JOBS=8 python3 setup.py build_ext --inplace > /tmp/build.log 2>&1; echo "built rc $?")
wait
PYTHONPATH=$ROOT timeout 200 python3 .ab/ptime.py 8192,8192,8209 8192,8193,8209 8192,8200,8209 8192,8191,8209 8192,8064,8209 \
  8192,8192,8193 8192,8193,8193 8192,8177,8177 8192,8176,8177 8191,8192,8193 8191,8193,8193 8191,8064,8193 \
  8192,8192,8192 8192,8193,8208 16384,16383,16383 16384,16128,16383 | tee $G/ptime.jsonl
cd $ROOT/.ab/tr && PYTHONPATH=$ROOT/.ab/tr timeout 150 python3 $ROOT/.ab/trace3.py 8192,8192,8209,256 8192,8193,8209,256 \
  8192,8193,8193,256 8192,8192,8193,256 8191,8193,8193,128 8191,8192,8193,128 2>&1 | tee $G/trace.txt
cd $OUT && tar czf v33-call2.tgz v33; date -u
