#!/usr/bin/env bash
# Session 2026-11-21 f, device call 11 (H200, a fresh machine): the full suite again on the
# final code (94c28df; kernels as 878bf91), to see how far single runs move between
# machines. Run from the repository root.
. scripts/gpu-build-env; export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
S=$OUT/s; mkdir -p $S
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > /tmp/build.log 2>&1; echo "built rc $?"; date -u
timeout 170 python3 benchmarks/bench_transpose.py --dtypes uint8 bool float8_e4m3fn bfloat16 float16 --tag h200-part1 --out-dir $S > $S/bench-part1-h200.log 2>&1; echo "part1 rc $?"
timeout 150 python3 benchmarks/bench_transpose.py --dtypes float32 float64 complex64 complex128 --tag h200-part2 --out-dir $S > $S/bench-part2-h200.log 2>&1; echo "part2 rc $?"
rm -f $S/*.png; (cd $S && tar czf $OUT/suite.tgz .)
grep -hE "^(large|small|vs |extra)" $S/bench-part*-h200.log; date -u
