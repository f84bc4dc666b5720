#!/usr/bin/env bash
# Session 2026-11-25 t, device call 10 (an H100): call 9's suite had, on its launch-bound small
# shapes (host time included), bool 1024^2 at 1.118x the copy and cuBLAS geam 4% ahead on
# complex128 1024^2. The small shapes again, all dtypes, in three processes, and the GPU's
# time alone (gpu_time_small.py). From the repository root.
set -uo pipefail
. scripts/gpu-build-env
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
mkdir -p $OUT/small
for run in 1 2 3; do
  timeout 150 python3 benchmarks/bench_transpose.py --shapes 1024x1024 65536x64 64x65536 4096x64x64 --no-compile \
    --tag h100-small-$run --out-dir $OUT/small > $OUT/small/small-$run.log 2>&1; echo "run $run rc $?"
  grep -hE "^(small|vs )" $OUT/small/small-$run.log
done
timeout 120 python3 benchmarks/gpu_time_small.py --out $OUT/small/gpu-time-small-h100.json > $OUT/small/gpu-time-small-h100.log 2>&1
echo "gpu_time_small rc $?"; tail -42 $OUT/small/gpu-time-small-h100.log
rm -f $OUT/small/*.png
(cd $OUT && tar czf small.tgz small && rm -rf small)
date -u
