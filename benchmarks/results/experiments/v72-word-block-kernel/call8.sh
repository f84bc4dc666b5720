#!/usr/bin/env bash
# Session ab, call 8: call7.sh again on v72 with every load of a thread before its shared-memory
# stores (call 7 loaded and stored a half tile at a time: 4-7% slower than the product) and the
# word-block test tracing both launches at once; tests and sanitizer only if b is faster on
# uint8 8192^2. Trees (carry .ab): a = 7348c2d (v68 kernels), b = the working tree. From the
# repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c8; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 200 scripts/ab-bench pitches --reps 30 --rounds 3 --cases uint8:8192x8192 \
  uint8:16384x16384 uint8:4096x32768 uint8:32768x4096 uint8:2048x65536 uint8:32x2048x2048 \
  uint8:2x8192x8192 uint8:1024x131072 uint8:8192x8192:8208 bool:8192x8192 \
  uint8:8191x8192 uint8:8192x8192:8209 uint8:4096x4096
echo "ab rc $?"; date -u
if ! grep -E "^uint8 8192x8192 " $G/ab/summary.txt | grep -qE "b/a +-"; then echo "b not faster on uint8 8192^2: no tests"; exit 0; fi
tar -xzf $G/ab/logs.tgz -C $G logs/build-b.log 2>/dev/null
grep -E "word_block|spill stores" $G/logs/build-b.log | grep -B1 -E "[1-9][0-9]* bytes spill" | head -4
grep -A3 "word_block" $G/logs/build-b.log | grep -E "registers|spill" | head -3; rm -rf $G/logs
export GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
. scripts/gpu-build-env
OUT=$G SMALL_L2_ONLY=1 timeout 150 bash scripts/sanitize; echo "sanitize rc $?"; date -u
GPUTRANSPOSE_HUGE=0 GPUTRANSPOSE_FUZZ_PROFILE=ci timeout 330 python3 -m pytest tests/test_transpose_cuda.py \
  tests/test_reliability.py tests/test_pt2.py tests/test_fuzz.py tests -q -rs -p no:cacheprovider \
  --maxfail=20 > $G/pytest.log 2>&1; echo "tests rc $?"; tail -3 $G/pytest.log
date -u | tee -a $G/device.txt
(cd $G && tar -czf tests-sanitize.tgz pytest.log sanitize-*.log && rm -f pytest.log sanitize-*.log)
