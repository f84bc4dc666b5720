#!/usr/bin/env bash
# Session aa, call 11, on the machine call 10 built on (its build kept; rebuilt if missing): v68, the final code,
# the whole test suite with CUDA required (the huge tests ran in call 10). From the
# repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c11; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
ls torch_transpose/_C*.so > /dev/null 2>&1 || { MAX_JOBS=16 python3 setup.py build_ext --inplace > $G/build.log 2>&1; echo "build rc $?"; }
GPUTRANSPOSE_REQUIRE_CUDA=1 GPUTRANSPOSE_HUGE=0 GPUTRANSPOSE_FUZZ_PROFILE=gpu GPUTRANSPOSE_FUZZ_REPORT=$G/fuzz.json \
  timeout 380 python3 -m pytest tests -q -rs -p no:cacheprovider --maxfail=20 > $G/pytest.log 2>&1; echo "tests rc $?"
tail -2 $G/pytest.log
rm -f $G/*.png
date -u | tee -a $G/device.txt
ls $G
