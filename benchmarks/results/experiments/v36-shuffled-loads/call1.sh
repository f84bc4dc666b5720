#!/usr/bin/env bash
# v36 device call 1 (carry .ab): unaligned 1-byte rows read by shuffled word loads
# (Access::Shuffled: each lane the aligned word under its piece, the next by a warp
# shuffle) instead of staged in shared memory. a = .ab/base (HEAD, staged),
# b = the working tree (shuffled; skewed tiles bounded to 3 blocks per SM, 40 registers),
# c = .ab/c (shuffled, no bound: 50 registers, 2 blocks of 512 per SM).
# ptxas of all; CUDA tests and memcheck of b; three rounds a, b, c.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
ROOT=$PWD
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
G=${OUT:-$ROOT/ab-out}/v36-1; mkdir -p $G/ab
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
python3 -c "import torch; print(torch.__version__, torch.version.cuda)" | tee -a $G/device.txt
for t in .ab/base . .ab/c; do
  (cd $ROOT/$t && rm -rf build torch_transpose/_C*.so && MAX_JOBS=6 GPUTRANSPOSE_PTXAS_VERBOSE=1 python3 setup.py build_ext --inplace \
     > /tmp/build-$(basename $t).log 2>&1; echo "$t built rc $?"
   grep -E "Compiling entry|Used [0-9]+ registers|spill" /tmp/build-$(basename $t).log | sed 's/^ *//' > $G/ptxas-$(basename $t).txt) &
done
wait
diff $G/ptxas-base.txt $G/ptxas-..txt > $G/ptxas-diff-b.txt; echo "ptxas diff lines b: $(wc -l < $G/ptxas-diff-b.txt)"
diff $G/ptxas-base.txt $G/ptxas-c.txt > $G/ptxas-diff-c.txt
(GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$ROOT timeout 200 python3 -m pytest -q -x -p no:cacheprovider \
   tests/test_transpose_cuda.py 2>&1 | tail -3) | tee $G/pytest-b.txt
(cd .ab/c && GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$ROOT/.ab/c timeout 200 python3 -m pytest -q -x -p no:cacheprovider \
   tests/test_transpose_cuda.py -k "uint8 or bool or float8" 2>&1 | tail -2) | tee $G/pytest-c.txt
CASES="uint8:8191x8193 bool:8191x8193 float8_e4m3fn:8191x8193 uint8:8193x8191 uint8:16383x16385
 uint8:4095x4097 uint8:8191x8193:8209 uint8:8192x8192:8209 uint8:8191x8192 uint8:8192x8192"
for round in 1 2 3; do
  for v in a b c; do
    dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base; [ $v = c ] && dir=$ROOT/.ab/c
    (cd $dir && PYTHONPATH=$dir timeout 150 python3 $ROOT/benchmarks/bench_pitches.py \
       --cases $CASES --tag $v$round --out $G/ab/$v$round.json > $G/ab/$v$round.log 2>&1) || echo "$v $round failed"
  done
done
python3 benchmarks/results/experiments/v33-cut-micro-blocks/compare.py $G/ab --trees=a,b,c | tee $G/ab-summary.txt
(OUT=$G timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 \
   env PYTORCH_NO_CUDA_MEMORY_CACHING=1 GPUTRANSPOSE_TILE_GROUP=2 PYTHONPATH=$ROOT python3 scripts/sanitizer_cases.py > $G/memcheck-b.log 2>&1; echo "memcheck rc $?") | tee -a $G/device.txt
grep -E "ERROR SUMMARY|cases, " $G/memcheck-b.log | tee -a $G/device.txt
date -u | tee -a $G/device.txt
cd $OUT && tar czf v36-call1.tgz v36-1
