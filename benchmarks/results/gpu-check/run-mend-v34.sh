#!/usr/bin/env bash
# Session 2026-11-22 k (H200): after the review mend (the launcher's tuning knobs read by one
# helper; kernels unchanged), clean build: the whole test suite with CUDA required, then the
# benchmark's quick mode. Run from the repository root.
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD GPUTRANSPOSE_REQUIRE_CUDA=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
python3 -c "import torch; print('torch', torch.__version__)"
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > /tmp/build.log 2>&1; echo "built rc $?"
timeout 330 python3 -m pytest tests -q -rs -p no:cacheprovider --maxfail=20 > $OUT/pytest-mend-v34.log 2>&1; echo "pytest rc $?"
tail -3 $OUT/pytest-mend-v34.log
timeout 200 python3 benchmarks/bench_transpose.py --quick --tag mend-quick-h200 --out-dir $OUT > $OUT/bench-quick-mend-v34.log 2>&1; echo "bench rc $?"
grep -E "^(large|small|vs |extra)" $OUT/bench-quick-mend-v34.log
date -u
