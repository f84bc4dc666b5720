#!/usr/bin/env bash
# Device call 26: a = HEAD (v17); b = L2::256B hint on unaligned loads only (v18 candidate);
# c = b + complex128 aligned kernels at >= 4 blocks/SM (64 registers);
# d = c + 1-/2-byte aligned tiles 128 bytes wide (small shapes only: GPU-bound time).
set -uo pipefail
R=/tmp/res; mkdir -p $R/ab
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=8
[ -x /usr/bin/g++ ] && export CC=/usr/bin/gcc CXX=/usr/bin/g++
export LDSHARED="$CXX -shared" LDCXXSHARED="$CXX -shared"
ROOT=$PWD
declare -A DIR=([a]=$ROOT/.ab/base [b]=$ROOT/.ab/b [c]=$ROOT/.ab/c [d]=$ROOT/.ab/d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for v in a b c d; do (cd ${DIR[$v]} && python3 setup.py build_ext --inplace > $R/build-$v.log 2>&1; echo "built $v rc $?") & done; wait
date -u
(cd ${DIR[a]} && PYTHONPATH=${DIR[a]} python3 $ROOT/.ab/hostbench.py > $R/hostbench-a.txt 2>&1; cat $R/hostbench-a.txt)
for vs in "a" "c complex128" "d uint8,bool,float8_e4m3fn,bfloat16,float16"; do
  set -- $vs; v=$1
  (cd ${DIR[$v]} && PYTHONPATH=${DIR[$v]} python3 $ROOT/.ab/gpubound.py ${2:-} > $R/gpubound-$v.txt 2>&1; echo "== gpubound $v"; cat $R/gpubound-$v.txt)
done
tar -czf $OUT/res.tgz -C $R .
date -u
UNAL="--dtypes uint8 bfloat16 float32 float64 complex64 complex128 --shapes 8191x8193 8192x8209[:,:-17]"
C128="--dtypes complex128 --shapes 8192x8192 16384x16384 4096x32768 32768x4096 8191x8192"
for round in 1 2 3; do for vs in "a u $UNAL" "b u $UNAL" "a k $C128" "c k $C128"; do
  set -- $vs; v=$1; s=$2; shift 2; d=${DIR[$v]}
  (cd $d && PYTHONPATH=$d timeout 120 python3 benchmarks/bench_transpose.py --no-compile --reps 30 --rounds 3 --out-dir $R/ab --tag ab-$v$round-$s \
     "$@" 2>&1 | grep -cE '^(uint8|bfloat|float|complex)')
done; date -u; rm -f $R/ab/*.png; tar -czf $OUT/res.tgz -C $R .; done
