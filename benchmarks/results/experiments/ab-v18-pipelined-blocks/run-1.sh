#!/usr/bin/env bash
# Device call 31: a = HEAD (v18); b = pipelined Wide kernels (resident blocks loop over tiles,
# next tile's loads issued before the current tile's stores); c = b with the staged 512-thread
# kernel capped at 3 blocks/SM (40 registers, 20 bytes spilled).
set -uo pipefail
R=/tmp/res; mkdir -p $R/ab
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=6
[ -x /usr/bin/g++ ] && export CC=/usr/bin/gcc CXX=/usr/bin/g++
export LDSHARED="$CXX -shared" LDCXXSHARED="$CXX -shared"
ROOT=$PWD
declare -A DIR=([a]=$ROOT/.ab/base [b]=$ROOT/.ab/b [c]=$ROOT/.ab/c)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for v in a b c; do (cd ${DIR[$v]} && python3 setup.py build_ext --inplace > $R/build-$v.log 2>&1; echo "built $v rc $?") & done; wait
date -u
(cd ${DIR[b]} && GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=${DIR[b]} timeout 150 python3 -m pytest tests/test_transpose_cuda.py tests/test_fuzz.py -q -x -p no:cacheprovider > $R/pytest-b.log 2>&1; echo "pytest b rc $?"; tail -3 $R/pytest-b.log)
(cd ${DIR[c]} && GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=${DIR[c]} timeout 60 python3 -m pytest tests/test_transpose_cuda.py -q -x -p no:cacheprovider -k "uint8" > $R/pytest-c.log 2>&1; echo "pytest c rc $?"; tail -2 $R/pytest-c.log)
date -u
tar -czf $OUT/res.tgz -C $R .
SET="--dtypes uint8 bfloat16 float32 float64 complex128 --shapes 8192x8192 8191x8193 8191x8192 8192x8209[:,:-17] 32x2048x2048"
for round in 1 2 3; do for v in a b c; do
  d=${DIR[$v]}
  (cd $d && PYTHONPATH=$d timeout 100 python3 benchmarks/bench_transpose.py --no-compile --reps 30 --rounds 3 --out-dir $R/ab --tag ab-$v$round $SET 2>&1 | grep -cE '^(uint8|bfloat|float|complex)')
  rm -f $R/ab/*.png; tar -czf $OUT/res.tgz -C $R .
done; date -u; done
