#!/usr/bin/env bash
# Session ac, call 4, on the machine call 3 built on (its build kept; rebuilt if missing):
# v77, the final code: the whole test suite with CUDA required (the huge tests ran in
# call 3), then scripts/sanitize's two passes on a 64 KiB L2 (memcheck and racecheck of
# the evict_last kernels, v75's among them, and the staged 2-byte ones). From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c4; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
ls torch_transpose/_C*.so > /dev/null 2>&1 || { MAX_JOBS=16 python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "build rc $?"; }
GPUTRANSPOSE_REQUIRE_CUDA=1 GPUTRANSPOSE_HUGE=0 GPUTRANSPOSE_FUZZ_PROFILE=ci \
  timeout 400 python3 -m pytest tests -q -rs -p no:cacheprovider --maxfail=20 > $G/pytest.log 2>&1; echo "tests rc $?"
tail -2 $G/pytest.log
SMALL_L2_ONLY=1 OUT=$G timeout 150 bash scripts/sanitize > $G/sanitize.log 2>&1; echo "sanitize rc $?"
tail -4 $G/sanitize.log
date -u | tee -a $G/device.txt
ls $G
