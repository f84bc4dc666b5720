#!/usr/bin/env bash
# v35 device call 6 (carry .ab): staged 1-byte skewed tiles with write windows on 32-byte
# sectors (staged-skew-32.diff: LEAD 32 rows of 256, not 16), as v35's skewed-window oracle
# favours (-1.3 to -1.9% at the real tile's geometry). a = .ab/base (HEAD), b = the working
# tree. ptxas of both; CUDA tests of b; three rounds a, b.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
ROOT=$PWD
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
G=${OUT:-$ROOT/ab-out}/v35-6; mkdir -p $G/ab
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
for t in .ab/base .; do
  (cd $ROOT/$t && rm -rf build torch_transpose/_C*.so && MAX_JOBS=8 GPUTRANSPOSE_PTXAS_VERBOSE=1 python3 setup.py build_ext --inplace \
     > /tmp/build-$(basename $t).log 2>&1; echo "$t built rc $?"
   grep -E "Compiling entry|Used [0-9]+ registers|spill" /tmp/build-$(basename $t).log | sed 's/^ *//' > $G/ptxas-$(basename $t).txt) &
done
wait
diff $G/ptxas-base.txt $G/ptxas-..txt > $G/ptxas-diff.txt; echo "ptxas diff lines: $(wc -l < $G/ptxas-diff.txt)"
(GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$ROOT timeout 200 python3 -m pytest -q -x -p no:cacheprovider \
   tests/test_transpose_cuda.py 2>&1 | tail -2) | tee $G/pytest-b.txt
CASES="uint8:8191x8193 bool:8191x8193 float8_e4m3fn:8191x8193 uint8:8193x8191 uint8:16383x16385
 uint8:4095x4097 uint8:8191x8193:8209 uint8:8192x8192:8209 uint8:8191x8192 bfloat16:8191x8193"
for round in 1 2 3; do
  for v in a b; do
    dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base
    (cd $dir && PYTHONPATH=$dir timeout 150 python3 $ROOT/benchmarks/bench_pitches.py \
       --cases $CASES --tag $v$round --out $G/ab/$v$round.json > $G/ab/$v$round.log 2>&1) || echo "$v $round failed"
  done
done
python3 benchmarks/results/experiments/v33-cut-micro-blocks/compare.py $G/ab --trees=a,b | tee $G/ab-summary.txt
date -u | tee -a $G/device.txt
cd $OUT && tar czf v35-call6.tgz v35-6
