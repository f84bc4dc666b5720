#!/usr/bin/env bash
# Session 2026-11-25 q: the full suite on the final code (the v42 code again, after v44 was dropped), in two parts, with the build that
# an earlier script left on the same machine (built again if there is none). Run from
# the repository root. SUITE_TAG names the device (h200, h100).
ROOT=$PWD
T=${SUITE_TAG:-h200}
S=$OUT/s; mkdir -p $S
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u
. scripts/gpu-build-env
if ! ls torch_transpose/_C*.so > /dev/null 2>&1; then
  python3 setup.py build_ext --inplace > $S/build.log 2>&1 || { tail -30 $S/build.log; exit 1; }
  rm -f $S/build.log
fi
export PYTHONUNBUFFERED=1
PYTHONPATH=$ROOT timeout 250 python3 benchmarks/bench_transpose.py --dtypes uint8 bool float8_e4m3fn bfloat16 float16 --tag $T-part1 --out-dir $S > $S/bench-part1-$T.log 2>&1; echo "part1 rc $?"
(cd $S && tar czf $OUT/suite.tgz .)
PYTHONPATH=$ROOT timeout 250 python3 benchmarks/bench_transpose.py --dtypes float32 float64 complex64 complex128 --tag $T-part2 --out-dir $S > $S/bench-part2-$T.log 2>&1; echo "part2 rc $?"
(cd $S && tar czf $OUT/suite.tgz .)
grep -hE "^(large|small|vs |extra)" $S/bench-part*-$T.log
date -u
