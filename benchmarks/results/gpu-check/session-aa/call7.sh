#!/usr/bin/env bash
# Session aa, call 7, on a two-GPU machine (nvidia-h100-x2): `../two-gpu-v51/call.sh` as it
# stands on the final code (197fbc0's product code) (a build from source, the two-GPU cases of tests/test_pt2.py,
# then tests/test_pt2.py and tests/test_transpose_cuda.py whole, CUDA required), its logs
# in $OUT/c7. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
mkdir -p $OUT/c7
OUT=$OUT/c7 bash benchmarks/results/gpu-check/two-gpu-v51/call.sh
