#!/usr/bin/env bash
# Device call 32: why the pipelined kernels lost. a = HEAD (v18); b0 = pipelined, resident blocks
# (as call 31's b); b1 = resident blocks looping over tiles, no overlap (next tile loaded after the
# current one's stores); b2 = two tiles per block (grid = tiles / 2), second loaded before the first is stored.
set -uo pipefail
R=/tmp/res; mkdir -p $R/ab
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=4
[ -x /usr/bin/g++ ] && export CC=/usr/bin/gcc CXX=/usr/bin/g++
export LDSHARED="$CXX -shared" LDCXXSHARED="$CXX -shared"
ROOT=$PWD
declare -A DIR=([a]=$ROOT/.ab/base [b0]=$ROOT/.ab/b0 [b1]=$ROOT/.ab/b1 [b2]=$ROOT/.ab/b2)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for v in a b0 b1 b2; do (cd ${DIR[$v]} && python3 setup.py build_ext --inplace > $R/build-$v.log 2>&1; echo "built $v rc $?") & done; wait
date -u
for v in b1 b2; do (cd ${DIR[$v]} && GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=${DIR[$v]} timeout 60 python3 -m pytest tests/test_transpose_cuda.py -q -x -p no:cacheprovider -k "uint8 or float32" > $R/pytest-$v.log 2>&1; echo "pytest $v rc $?"; tail -1 $R/pytest-$v.log); done
SET="--dtypes uint8 float32 --shapes 8192x8192 8191x8193 8191x8192 8192x8209[:,:-17]"
for round in 1 2 3; do for v in a b0 b1 b2; do
  d=${DIR[$v]}
  (cd $d && PYTHONPATH=$d timeout 60 python3 benchmarks/bench_transpose.py --no-compile --reps 30 --rounds 3 --out-dir $R/ab --tag ab-$v$round $SET 2>&1 | grep -cE '^(uint8|bfloat|float|complex)')
done; rm -f $R/ab/*.png; tar -czf $OUT/res.tgz -C $R .; date -u; done
