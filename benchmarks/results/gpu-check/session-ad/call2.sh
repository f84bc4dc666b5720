#!/usr/bin/env bash
# Session ad, call 2: v79 as product (has_tall_tile: tall tiles for staged 2-byte rows and
# 8-byte word loads too) and v80, the rule's line (experiments/v80-tall-tile-line/).
# An A/B: a = HEAD before v79 (scripts/ab-bench prepare HEAD, here; carry .ab), b = the
# working tree, c = b with the line at 12288 rows, d = at 8192 (c.diff, d.diff). Then on
# b's build: the whole test suite with CUDA required and scripts/sanitize's two passes on
# a 64 KiB L2. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c2; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 200 scripts/ab-bench pitches --reps 30 --rounds 3 --cases \
  uint8:12288x12288:12305 bfloat16:12288x12288:12305 float32:12288x12288:12305 float64:12288x12288:12305 \
  uint8:8192x8192:8209 bfloat16:8192x8192:8209 float32:8192x8192:8209 float64:8192x8192:8209 \
  bfloat16:32768x4097 float64:32768x4097
echo "ab rc $?"; date -u | tee -a $G/device.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
ls torch_transpose/_C*.so > /dev/null 2>&1 || { MAX_JOBS=16 python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "build rc $?"; }
GPUTRANSPOSE_REQUIRE_CUDA=1 timeout 60 python3 -m pytest tests/test_transpose_cuda.py -q -p no:cacheprovider -k long_output_rows 2>&1 | tail -3
GPUTRANSPOSE_REQUIRE_CUDA=1 GPUTRANSPOSE_HUGE=0 GPUTRANSPOSE_FUZZ_PROFILE=ci \
  timeout 320 python3 -m pytest tests -q -rs -p no:cacheprovider --maxfail=20 > $G/pytest.log 2>&1; echo "tests rc $?"
tail -2 $G/pytest.log
SMALL_L2_ONLY=1 OUT=$G timeout 80 bash scripts/sanitize > $G/sanitize.log 2>&1; echo "sanitize rc $?"
tail -3 $G/sanitize.log
date -u | tee -a $G/device.txt
(cd $G && tar -czf sanitize-logs.tgz sanitize-*.log && rm -f sanitize-*.log)
ls $G
