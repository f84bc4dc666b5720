#!/usr/bin/env bash
# v68 device call (session aa call 9), on whichever card comes: evict_last input for the skewed
# 1-byte kernel with aligned loads (the uint8 8191x8192 row, the suite's worst on H100s), the
# 2- to 8-byte skewed kernels' v39/v42 gain (1.3-1.7%), which v42 found 3.5-3.8% slower for
# 1-byte tiles at 40 registers (three blocks a SM) or with a 4-byte spill at four. Here ptxas
# holds it to 32 registers at four blocks with no spill. Trees (scripts/ab-bench, carry .ab):
# a = the product (197fbc0), b = the working tree (the same product code: a noise control),
# c = skewed-1-byte-evict-last.diff. Three alternating rounds of bench_pitches.py; then c's
# evict_last tests on small L2s and memcheck/racecheck on a 64 KiB L2. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c9; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 420 scripts/ab-bench pitches --cases uint8:8191x8192 uint8:8193x8192 uint8:16383x16384 \
  uint8:32767x4096 uint8:4095x32768 uint8:8192x8192 uint8:4095x4096
echo "ab rc $?"; date -u
export GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 PYTHONPATH=$PWD/.ab/c
. scripts/gpu-build-env
# From inside tree c (python -m puts the working directory first on sys.path).
cp -r tests scripts .ab/c/
(cd .ab/c && python3 -c "import torch_transpose; print(torch_transpose.__file__)" &&
  timeout 150 python3 -m pytest tests/test_transpose_cuda.py -q -x -p no:cacheprovider \
    -k "evict_last or uint8 or bool or odd") > $G/tests-c.log 2>&1
echo "tests c rc $?"; head -1 $G/tests-c.log; tail -1 $G/tests-c.log
OUT=$G SMALL_L2_ONLY=1 timeout 100 bash .ab/c/scripts/sanitize; echo "sanitize c rc $?"
(cd $G && tar -czf tests-sanitize.tgz tests-*.log sanitize-*.log 2>/dev/null; rm -f tests-*.log sanitize-*.log)
date -u | tee -a $G/device.txt
