#!/usr/bin/env bash
# Session 2026-11-22 j, device call 7 (H200): the full suite on the final code (commit e01935d, kernels v33), in two
# parts (clean build). Run from the repository root.
ROOT=$PWD
S=$OUT/s; mkdir -p $S
rm -rf build torch_transpose/_C*.so
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; git log -1 --format=%h 2>/dev/null
date -u
. scripts/gpu-build-env
python3 setup.py build_ext --inplace > $S/build.log 2>&1 || { tail -30 $S/build.log; exit 1; }
rm -f $S/build.log
export PYTHONUNBUFFERED=1
PYTHONPATH=$ROOT timeout 200 python3 benchmarks/bench_transpose.py --dtypes uint8 bool float8_e4m3fn bfloat16 float16 --tag h200-part1 --out-dir $S > $S/bench-part1-h200.log 2>&1; echo "part1 rc $?"
(cd $S && tar czf $OUT/suite.tgz .)
PYTHONPATH=$ROOT timeout 200 python3 benchmarks/bench_transpose.py --dtypes float32 float64 complex64 complex128 --tag h200-part2 --out-dir $S > $S/bench-part2-h200.log 2>&1; echo "part2 rc $?"
(cd $S && tar czf $OUT/suite.tgz .)
grep -hE "^(large|small|vs |extra)" $S/bench-part*-h200.log
date -u
