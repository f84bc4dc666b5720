#!/usr/bin/env bash
# Session ac, call 6: v78's tall tiles as a rule (tall_tiles: 1- and 4-byte rows that start
# anywhere, under aligned stores, output rows of 16384 elements or more), the final code.
# An A/B against HEAD (v77) on the rows the rule takes and on 8192-row ones it leaves
# (scripts/ab-bench prepare HEAD beforehand, here; carry .ab), then on the working tree's
# build from it: the whole test suite with CUDA required and scripts/sanitize's two passes
# on a 64 KiB L2. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c6; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 200 scripts/ab-bench pitches --reps 30 --rounds 3 --cases uint8:16384x16384:16401 \
  bool:16384x16384:16401 uint8:32768x4097 uint8:65536x2049 uint8:16384x8193 float32:16384x16384:16401 \
  float32:32768x4097 float32:16384x4097 uint8:8192x8192:8209 float32:8192x8192:8209
echo "ab rc $?"; date -u | tee -a $G/device.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
ls torch_transpose/_C*.so > /dev/null 2>&1 || { MAX_JOBS=16 python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "build rc $?"; }
GPUTRANSPOSE_REQUIRE_CUDA=1 GPUTRANSPOSE_HUGE=0 GPUTRANSPOSE_FUZZ_PROFILE=ci \
  timeout 330 python3 -m pytest tests -q -rs -p no:cacheprovider --maxfail=20 > $G/pytest.log 2>&1; echo "tests rc $?"
tail -2 $G/pytest.log
SMALL_L2_ONLY=1 OUT=$G timeout 90 bash scripts/sanitize > $G/sanitize.log 2>&1; echo "sanitize rc $?"
tail -3 $G/sanitize.log
date -u | tee -a $G/device.txt
(cd $G && tar -czf sanitize-logs.tgz sanitize-*.log && rm -f sanitize-*.log)
ls $G
