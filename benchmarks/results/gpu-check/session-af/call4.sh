#!/usr/bin/env bash
# Session af, call 4: what the whole-suite runs (calls 1 and 3) leave out, on the final code
# (commit 749fb51: v79's kernels, forward AD and the vmap rule): the fuzz test's gpu
# profile (10,300 cases), the five GPUTRANSPOSE_HUGE tests (past 2^31 elements), and
# scripts/sanitize whole (memcheck, racecheck, initcheck, synccheck; memcheck and
# racecheck on a 64 KiB L2). From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c4; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
. scripts/gpu-build-env; export GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD PYTHONUNBUFFERED=1
rm -rf build torch_transpose/_C*.so
MAX_JOBS=16 python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "build rc $?"
GPUTRANSPOSE_FUZZ_PROFILE=gpu GPUTRANSPOSE_FUZZ_REPORT=$G/fuzz.json timeout 200 \
  python3 -m pytest tests/test_fuzz.py -q -rs -p no:cacheprovider > $G/fuzz.log 2>&1
echo "fuzz rc $?"; tail -1 $G/fuzz.log; tr -d '\n ' < $G/fuzz.json; echo
GPUTRANSPOSE_HUGE=1 timeout 200 python3 -m pytest tests/test_reliability.py -q -rs -p no:cacheprovider \
  -k "huge or 2_pow" -v > $G/huge.log 2>&1
echo "huge rc $?"; grep -E "PASS|FAIL|SKIP|ERROR|passed|failed" $G/huge.log
date -u | tee -a $G/device.txt
OUT=$G timeout 150 bash scripts/sanitize > $G/sanitize.log 2>&1; echo "sanitize rc $?"
cat $G/sanitize.log
date -u | tee -a $G/device.txt
(cd $G && tar -czf logs.tgz sanitize-*.log build.log && rm -f sanitize-*.log build.log)
ls $G
