#!/usr/bin/env bash
# Session z, call 9, on a two-GPU machine (nvidia-h100-x2): `../two-gpu-v51/call.sh` as it
# stands on v65, the final code (a build from source, the two-GPU cases of tests/test_pt2.py,
# then tests/test_pt2.py and tests/test_transpose_cuda.py whole, CUDA required), its logs
# in $OUT/c9. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
mkdir -p $OUT/c9
OUT=$OUT/c9 bash benchmarks/results/gpu-check/two-gpu-v51/call.sh
