#!/usr/bin/env bash
# Session 2026-11-25 s, device call 6: the fuzz test with wide-element layouts drawn more
# often (tests/test_fuzz.py, GPU profile, 10,300 cases), on the final v46 product code;
# clean build. Run from the repository root.
set -uo pipefail
G=$OUT/c6; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
. scripts/gpu-build-env
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > $G/build.log 2>&1 || { tail -30 $G/build.log; exit 1; }
rm -f $G/build.log
GPUTRANSPOSE_REQUIRE_CUDA=1 GPUTRANSPOSE_FUZZ_PROFILE=gpu GPUTRANSPOSE_FUZZ_REPORT=$G/fuzz.json PYTHONPATH=$PWD \
  timeout 400 python3 -m pytest tests/test_fuzz.py -q -p no:cacheprovider > $G/pytest-fuzz.log 2>&1
echo "fuzz rc $?"; tail -1 $G/pytest-fuzz.log; cat $G/fuzz.json
date -u | tee -a $G/device.txt
