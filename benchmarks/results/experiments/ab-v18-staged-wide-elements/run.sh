#!/usr/bin/env bash
# Device call 33: a = HEAD (v18 kernels + graph-capture test); b = unaligned rows of 2-, 4- and
# 8-byte elements staged in shared memory (as 1-byte ones), not read as shifted words.
set -uo pipefail
R=/tmp/res; mkdir -p $R/ab
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=8
[ -x /usr/bin/g++ ] && export CC=/usr/bin/gcc CXX=/usr/bin/g++
export LDSHARED="$CXX -shared" LDCXXSHARED="$CXX -shared"
ROOT=$PWD
declare -A DIR=([a]=$ROOT/.ab/base [b]=$ROOT/.ab/b)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for v in a b; do (cd ${DIR[$v]} && python3 setup.py build_ext --inplace > $R/build-$v.log 2>&1; echo "built $v rc $?") & done; wait
date -u
(cd ${DIR[a]} && GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=${DIR[a]} timeout 200 python3 -m pytest tests/test_pt2.py -q -rs -p no:cacheprovider -k "graph or stream" > $R/pytest-a-graph.log 2>&1; echo "pytest a graph rc $?"; tail -2 $R/pytest-a-graph.log)
(cd ${DIR[b]} && GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=${DIR[b]} timeout 150 python3 -m pytest tests/test_transpose_cuda.py tests/test_fuzz.py -q -x -p no:cacheprovider > $R/pytest-b.log 2>&1; echo "pytest b rc $?"; tail -1 $R/pytest-b.log)
date -u; tar -czf $OUT/res.tgz -C $R .
SET="--dtypes uint8 bfloat16 float16 float32 float64 complex64 --shapes 8191x8193 8192x8209[:,:-17]"
for round in 1 2 3; do for v in a b; do
  d=${DIR[$v]}
  (cd $d && PYTHONPATH=$d timeout 60 python3 benchmarks/bench_transpose.py --no-compile --reps 30 --rounds 3 --out-dir $R/ab --tag ab-$v$round $SET 2>&1 | grep -cE '^(uint8|bfloat|float|complex)')
done; rm -f $R/ab/*.png; tar -czf $OUT/res.tgz -C $R .; date -u; done
