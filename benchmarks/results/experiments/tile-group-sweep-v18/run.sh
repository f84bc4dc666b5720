#!/usr/bin/env bash
# Device call 35: tile-group sweep (GPUTRANSPOSE_TILE_GROUP, one build, one process per value,
# alternating rounds) on the aligned 1-byte squares and the complex128 8192-row shapes.
set -uo pipefail
R=/tmp/res; mkdir -p $R/ab
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=16 CC=/usr/bin/gcc CXX=/usr/bin/g++
export LDSHARED="/usr/bin/g++ -shared" LDCXXSHARED="/usr/bin/g++ -shared"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > $R/build.log 2>&1; echo "built rc $?"; date -u
SET="--dtypes uint8 complex128 --shapes 8192x8192 16384x16384 8191x8192"
for round in 1 2 3; do for g in 256 64 32 16; do
  (GPUTRANSPOSE_TILE_GROUP=$g PYTHONPATH=$PWD timeout 90 python3 benchmarks/bench_transpose.py --no-compile --reps 30 --rounds 3 --out-dir $R/ab --tag ab-g$g$round $SET 2>&1 | grep -cE '^(uint8|bfloat|float|complex)')
done; rm -f $R/ab/*.png; tar -czf $OUT/res.tgz -C $R .; date -u; done
