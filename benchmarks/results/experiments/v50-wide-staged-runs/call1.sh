#!/usr/bin/env bash
# v50 device call 3: staged aligned-store tiles 128 x 512 (512-byte input runs), 1024 threads,
# staging in the output tile's shared memory (wide-staged-runs.diff, the working tree)
# against HEAD (.ab/base from `scripts/ab-bench prepare HEAD`): three alternating rounds of
# bench_pitches.py, then the working tree's CUDA tests of 1-byte, odd, sliced and strided
# cases. Carry .ab; from the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
AB_ROUNDS=3 OUT=$OUT scripts/ab-bench pitches --cases uint8:8192x8192:8209 uint8:16384x16384:16401 \
  uint8:8192x8193 uint8:4096x4096:4113 uint8:1024x1024:1041 uint8:100x5000:5003 uint8:8191x8193 uint8:8192x8192
echo "ab rc $?"
. scripts/gpu-build-env
GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD timeout 200 python3 -m pytest tests -q -x -p no:cacheprovider \
  -k "uint8 or bool or float8 or odd or slice or stride or fuzz" 2>&1 | tail -4
echo "tests rc ${PIPESTATUS[0]}"
