#!/usr/bin/env bash
# Session h, call 1: host path trims (b) against HEAD (a): host us per call and GPU us
# (gpu_time_small.py, queue kept full), and the suite's host-inclusive small rows.
cd "$(dirname "$0")/.."
ROOT=$PWD
O=$OUT/o; mkdir -p $O
. scripts/gpu-build-env
(cd .ab/base && python3 setup.py build_ext --inplace > $O/build-a.log 2>&1) &
(python3 setup.py build_ext --inplace > $O/build-b.log 2>&1) &
wait
echo "built $SECONDS s"; ls .ab/base/torch_transpose/*.so torch_transpose/*.so || exit 1
GPUTRANSPOSE_REQUIRE_CUDA=1 timeout 200 python3 -m pytest tests/test_transpose_cuda.py tests/test_transpose.py -q -x -p no:cacheprovider 2>&1 | tail -3 > $O/pytest-b.txt
cat $O/pytest-b.txt; echo "tests $SECONDS s"
for round in 1 2 3; do for v in a b; do
  dir=$ROOT; [ $v = a ] && dir=$ROOT/.ab/base
  (cd $dir && PYTHONPATH=$dir timeout 150 python3 $ROOT/benchmarks/gpu_time_small.py \
     --dtypes uint8 bfloat16 float32 float64 complex64 complex128 --out $O/gts-$v$round.json > $O/gts-$v$round.log 2>&1)
  (cd $dir && PYTHONPATH=$dir timeout 150 python3 $ROOT/benchmarks/bench_transpose.py --no-compile \
     --dtypes uint8 float32 float64 complex64 complex128 --shapes 1024x1024 65536x64 64x65536 4096x64x64 \
     --out-dir $O --tag host-$v$round > $O/bench-$v$round.log 2>&1)
  echo "round $round $v $SECONDS s"
done; done
rm -f $O/*.png
cd $O && tar czf ../o.tgz . && cd $ROOT && rm -rf $O
