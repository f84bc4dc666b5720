#!/usr/bin/env bash
# Session 2026-11-25 o: the full suite on the v39 kernels, in two parts (clean build), then
# L2 after the op (benchmarks/l2_after_op.py) on every large aligned and odd shape of four
# dtypes. Run from the repository root. SUITE_TAG names the device (h200, h100).
ROOT=$PWD
T=${SUITE_TAG:-h200}
S=$OUT/s; mkdir -p $S
rm -rf build torch_transpose/_C*.so
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u
. scripts/gpu-build-env
python3 setup.py build_ext --inplace > $S/build.log 2>&1 || { tail -30 $S/build.log; exit 1; }
rm -f $S/build.log
export PYTHONUNBUFFERED=1
PYTHONPATH=$ROOT timeout 250 python3 benchmarks/bench_transpose.py --dtypes uint8 bool float8_e4m3fn bfloat16 float16 --tag $T-part1 --out-dir $S > $S/bench-part1-$T.log 2>&1; echo "part1 rc $?"
(cd $S && tar czf $OUT/suite.tgz .)
PYTHONPATH=$ROOT timeout 250 python3 benchmarks/bench_transpose.py --dtypes float32 float64 complex64 complex128 --tag $T-part2 --out-dir $S > $S/bench-part2-$T.log 2>&1; echo "part2 rc $?"
(cd $S && tar czf $OUT/suite.tgz .)
grep -hE "^(large|small|vs |extra)" $S/bench-part*-$T.log
date -u
PYTHONPATH=$ROOT timeout 200 python3 benchmarks/l2_after_op.py --dtypes float32 uint8 bfloat16 float64 complex128 \
  --shapes 16384x16384 8192x8192 4096x32768 32768x4096 8191x8193 8191x8192 32x2048x2048 "8192x8209[:,:-17]" \
  --reps 30 --out $S/l2-after-op-$T.json > $S/l2-after-op-$T.log 2>&1; echo "l2 rc $?"
cat $S/l2-after-op-$T.log | tail -n 41
(cd $S && tar czf $OUT/suite.tgz .)
date -u
