#!/usr/bin/env bash
# Session y, v62 on a two-GPU machine: `../two-gpu-v51/call.sh` as it stands (a build from
# source, the two-GPU cases of tests/test_pt2.py, among them skewed bfloat16 rows past L2,
# then tests/test_pt2.py and tests/test_transpose_cuda.py whole, CUDA required), its logs
# in $OUT/c5. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
mkdir -p $OUT/c5
OUT=$OUT/c5 bash benchmarks/results/gpu-check/two-gpu-v51/call.sh
