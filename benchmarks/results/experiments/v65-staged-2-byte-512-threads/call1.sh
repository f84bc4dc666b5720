#!/usr/bin/env bash
# v65 device call 1 (session z), on whichever card comes (on an H200 the staged 2-byte kernels
# do not run: it says so and stops). Trees (scripts/ab-bench): a = the product (v64, HEAD),
# b = staged 2-byte rows in 8-byte pieces, 512 threads a tile rather than 256, three blocks a
# SM (`staged-2-byte-8-byte-pieces.diff`), c = b for the skewed staged kernel only
# (`skewed-only-on-top.diff`). Three alternating rounds of bench_pitches.py; then the CUDA
# tests of 2-byte, staged, odd and sliced cases in b and c, and memcheck and racecheck on a
# 64 KiB L2 with staged 2-byte rows forced on in b. Carry .ab; from the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
case "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" in
  *H200*) echo "an H200: its memory is over 4 TB/s, staged 2-byte rows do not run there"; exit 3 ;;
esac
G=$OUT/c1; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 400 scripts/ab-bench pitches --cases bfloat16:8191x8193 float16:8191x8193 \
  bfloat16:16383x16385 bfloat16:8192x8192:8209 float16:8192x8192:8209 bfloat16:16384x16384:16401 \
  bfloat16:8191x8192:8209 bfloat16:4095x4097 bfloat16:8192x8192 uint8:8191x8193
echo "ab rc $?"; date -u
export GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1
. scripts/gpu-build-env
for t in b c; do
  d=$PWD; [ $t = c ] && d=$PWD/.ab/c
  PYTHONPATH=$d timeout 70 python3 -m pytest tests/test_transpose_cuda.py -q -x -p no:cacheprovider \
    -k "staged or small_l2 or bfloat16 or int16 or odd or slice or overlapping" > $G/tests-$t.log 2>&1
  echo "tests $t rc $?"; tail -1 $G/tests-$t.log
done
OUT=$G SMALL_L2_ONLY=1 timeout 100 bash scripts/sanitize; echo "sanitize rc $?"
(cd $G && tar -czf tests-sanitize.tgz tests-*.log sanitize-*.log && rm -f tests-*.log sanitize-*.log)
date -u | tee -a $G/device.txt
