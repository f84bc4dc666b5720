#!/usr/bin/env bash
# Session 2026-11-25 o (H200): after GPUTRANSPOSE_L2_BYTES (a test knob) was added: clean
# build, the evict_last and tile-walk tests, and scripts/sanitize with its new memcheck pass
# on a 64 KiB L2 (the evict_last kernels on the sanitizer cases). Run from the repository root.
S=$OUT/k; mkdir -p $S
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf build torch_transpose/_C*.so
. scripts/gpu-build-env
python3 setup.py build_ext --inplace > $S/build.log 2>&1 || { tail -30 $S/build.log; exit 1; }
GPUTRANSPOSE_REQUIRE_CUDA=1 timeout 300 python3 -m pytest tests/test_transpose_cuda.py -q -rs -p no:cacheprovider \
  -k "evict_last or larger_than_l2 or tile_walk or interleaved" > $S/pytest.log 2>&1; echo "pytest rc $?"
tail -3 $S/pytest.log
OUT=$S timeout 400 scripts/sanitize; echo "sanitize rc $?"
rm -f $S/build.log; (cd $S && tar czf $OUT/knob.tgz .)
date -u
