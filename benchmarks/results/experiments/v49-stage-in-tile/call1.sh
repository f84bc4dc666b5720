#!/usr/bin/env bash
# v49 device call 1: staged rows in the output tile's shared memory (stage-in-tile.diff, the
# working tree) against HEAD (.ab/base from `scripts/ab-bench prepare HEAD`): three
# alternating rounds of bench_pitches.py on the staged kernels' rows and controls, then
# the working tree's CUDA tests of the staged kernels. Carry .ab; from the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
AB_ROUNDS=3 OUT=$OUT scripts/ab-bench pitches --cases uint8:8192x8192:8209 uint8:8191x8193 \
  uint8:8192x8193 uint8:16384x16384:16401 bool:8191x8193 uint8:8192x8192 bfloat16:8191x8193
echo "ab rc $?"
. scripts/gpu-build-env
GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD timeout 200 python3 -m pytest tests -q -x -p no:cacheprovider \
  -k "uint8 or bool or float8 or odd or slice or stride or fuzz" 2>&1 | tail -4
echo "tests rc ${PIPESTATUS[0]}"
