#!/usr/bin/env bash
# v37 device call 1 (carry .ab): the 1-byte register transpose in two rounds of byte
# permutes (8 a 4x4 block of bytes instead of 12). a = .ab/base (HEAD), b = the working
# tree. ptxas of both; CUDA tests of b; bench_pitches three rounds a, b on every 1-byte
# kernel's large rows; gpu_time_small on the 1-byte small shapes, two rounds a, b.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
ROOT=$PWD
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
G=${OUT:-$ROOT/ab-out}/v37-1; mkdir -p $G/ab $G/small
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
python3 -c "import torch; print(torch.__version__, torch.version.cuda)" | tee -a $G/device.txt
for t in .ab/base .; do
  (cd $ROOT/$t && rm -rf build torch_transpose/_C*.so && MAX_JOBS=8 GPUTRANSPOSE_PTXAS_VERBOSE=1 python3 setup.py build_ext --inplace \
     > /tmp/build-$(basename $t).log 2>&1; echo "$t built rc $?"
   grep -E "Compiling entry|Used [0-9]+ registers|spill" /tmp/build-$(basename $t).log | sed 's/^ *//' > $G/ptxas-$(basename $t).txt) &
done
wait
diff $G/ptxas-base.txt $G/ptxas-..txt > $G/ptxas-diff.txt; echo "ptxas diff lines: $(wc -l < $G/ptxas-diff.txt)"
(GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$ROOT timeout 200 python3 -m pytest -q -x -p no:cacheprovider \
   tests/test_transpose_cuda.py 2>&1 | tail -2) | tee $G/pytest-b.txt
CASES="uint8:8192x8192 uint8:16384x16384 uint8:32768x4096 uint8:4096x32768 uint8:4096x4096
 float8_e4m3fn:8192x8192 uint8:8191x8192 uint8:8191x8193 bool:8191x8193 uint8:8192x8192:8209"
for round in 1 2 3; do
  for v in a b; do
    dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base
    (cd $dir && PYTHONPATH=$dir timeout 150 python3 $ROOT/benchmarks/bench_pitches.py \
       --cases $CASES --tag $v$round --out $G/ab/$v$round.json > $G/ab/$v$round.log 2>&1) || echo "$v $round failed"
  done
done
python3 benchmarks/results/experiments/v33-cut-micro-blocks/compare.py $G/ab --trees=a,b | tee $G/ab-summary.txt
for round in 1 2; do
  for v in a b; do
    dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base
    (cd $dir && PYTHONPATH=$dir:$dir/benchmarks timeout 100 python3 benchmarks/gpu_time_small.py \
       --dtypes uint8 bool --out $G/small/$v$round.json > $G/small/$v$round.log 2>&1) || echo "small $v $round failed"
    echo "== $v$round"; grep -E "^(uint8|bool)" $G/small/$v$round.log | cut -c1-100
  done
done 2>&1 | tee $G/small-summary.txt
date -u | tee -a $G/device.txt
cd $OUT && tar czf v37-call1.tgz v37-1
