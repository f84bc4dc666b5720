#!/usr/bin/env bash
# Device call 25: a = HEAD (v17); x = loads as inline asm, no hints (control);
# b = ld.global / cp.async with .L2::256B prefetch; c = b with ld.global.nc.L1::no_allocate.
# Plus: host cost per call, and GPU-bound time per call of small shapes (tree a).
set -uo pipefail
R=/tmp/res; mkdir -p $R/ab
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=8
[ -x /usr/bin/g++ ] && export CC=/usr/bin/gcc CXX=/usr/bin/g++
export LDSHARED="$CXX -shared" LDCXXSHARED="$CXX -shared"
ROOT=$PWD
declare -A DIR=([a]=$ROOT/.ab/base [x]=$ROOT/.ab/x [b]=$ROOT/.ab/b [c]=$ROOT/.ab/c)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for v in a x b c; do (cd ${DIR[$v]} && python3 setup.py build_ext --inplace > $R/build-$v.log 2>&1; echo "built $v rc $?") & done; wait
date -u
for v in a x b c; do
  so=$(ls ${DIR[$v]}/torch_transpose/_C*.so)
  cuobjdump -sass $so > $R/sass-$v.txt 2>&1
  echo "== $v: load opcodes"; grep -oE "(LDG|LDGSTS)[A-Z0-9._]*" $R/sass-$v.txt | sort | uniq -c
done
(cd ${DIR[a]} && PYTHONPATH=${DIR[a]} python3 $ROOT/.ab/hostbench.py cuda > $R/hostbench-a.txt 2>&1; cat $R/hostbench-a.txt)
(cd ${DIR[a]} && PYTHONPATH=${DIR[a]} python3 $ROOT/.ab/gpubound.py > $R/gpubound-a.txt 2>&1; cat $R/gpubound-a.txt)
tar -czf $OUT/res.tgz -C $R .
date -u
BIG="--dtypes uint8 bfloat16 float32 float64 complex128 --shapes 8192x8192 4096x32768 32768x4096"
BIG2="--dtypes float64 complex64 --shapes 16384x16384"
ODD="--dtypes uint8 bfloat16 float32 float64 --shapes 8191x8193 8191x8192 8192x8209[:,:-17]"
for round in 1 2 3; do for v in a x b c; do
  d=${DIR[$v]}
  for set in "$BIG" "$BIG2" "$ODD"; do
    (cd $d && PYTHONPATH=$d timeout 100 python3 benchmarks/bench_transpose.py --no-compile --reps 30 --rounds 3 --out-dir $R/ab --tag ab-$v$round-$(echo $set | md5sum | cut -c1-4) \
       $set 2>&1 | grep -cE '^(uint8|bfloat|float|complex)')
  done
  date -u
done; rm -f $R/ab/*.png; tar -czf $OUT/res.tgz -C $R .; done
