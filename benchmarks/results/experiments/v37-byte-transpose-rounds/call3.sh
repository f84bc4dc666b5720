#!/usr/bin/env bash
# v37 device call 3 (carry .ab): the staged rows' misalignments from the tile's row 0
# (block-uniform, staged-row0.diff) on top of v37. a = .ab/base (HEAD, v37), b = the
# working tree. ptxas and SASS instruction counts of both staged kernels; CUDA tests of
# b; bench_pitches three rounds a, b on the staged rows and controls.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
ROOT=$PWD
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
G=${OUT:-$ROOT/ab-out}/v37-3; mkdir -p $G/ab $G/small
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
CASES="uint8:8191x8193 bool:8191x8193 float8_e4m3fn:8191x8193 uint8:8193x8191 uint8:16383x16385
 uint8:4095x4097 uint8:8191x8193:8209 uint8:8192x8192:8209 uint8:8192x8192 uint8:4096x4096 uint8:8191x8192"
for round in 1 2 3; do
  for v in a b; do
    dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base
    (cd $dir && PYTHONPATH=$dir timeout 150 python3 $ROOT/benchmarks/bench_pitches.py \
       --cases $CASES --tag $v$round --out $G/ab/$v$round.json > $G/ab/$v$round.log 2>&1) || echo "$v $round failed"
  done
done
python3 benchmarks/results/experiments/v33-cut-micro-blocks/compare.py $G/ab --trees=a,b | tee $G/ab-summary.txt
for t in .ab/base .; do
  so=$(ls $ROOT/$t/torch_transpose/_C*.so)
  cuobjdump --dump-sass "$so" | awk '/Function :/{f=$3} /^ +\/\*[0-9a-f]+\*\//{n[f]++} END{for(k in n) print n[k], k}' \
    | grep -E "Li1ELNS0_6AccessE2" | sort -k2 > $G/sass-count-$(basename $t).txt
done
paste $G/sass-count-base.txt $G/sass-count-..txt | awk '{print $1, $3, $2}' | tee $G/sass-counts.txt
date -u | tee -a $G/device.txt
cd $OUT && tar czf v37-call3.tgz v37-3
