#!/usr/bin/env bash
# Session 2026-11-21 h, device call 10 (2x H200): after the once_per_device mend (commit in the log name; the
# launcher's per-device caches now take the input's device), clean build: the whole suite
# with CUDA required (the two-GPU cases among them), the C++ tests too, then the quick
# benchmark. Needs .gtest carried.
# Run from the repository root.
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD GPUTRANSPOSE_REQUIRE_CUDA=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > /tmp/build.log 2>&1; echo "built rc $?"
timeout 480 python3 -m pytest tests -q -rs -p no:cacheprovider --maxfail=20 > $OUT/pytest-2gpu-all-mend.log 2>&1; echo "pytest rc $?"
tail -6 $OUT/pytest-2gpu-all-mend.log
timeout 150 python3 benchmarks/bench_transpose.py --quick --tag mend-quick-h200 --out-dir $OUT > $OUT/bench-quick-mend.log 2>&1; echo "bench rc $?"
grep -hE "^(large|small|vs |extra)" $OUT/bench-quick-mend.log
date -u
