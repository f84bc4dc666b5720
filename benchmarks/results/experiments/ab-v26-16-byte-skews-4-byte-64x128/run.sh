#!/usr/bin/env bash
# Session 2026-11-21 c, device call 5 (H200): a = HEAD, c = 16-byte skews (SKEW_BYTES) for the
# word-loaded skewed tiles of 4- and 8-byte elements (4 and 2 rows re-read instead of 8 and 4),
# b = c + 4-byte ones 64 x 128 (512-byte runs) instead of 128 x 64.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/ab
OUT=$OUT/ab AB_ROUNDS=3 timeout 400 scripts/ab-bench run --no-compile --reps 30 --rounds 3 \
  --dtypes float32 float64 complex64 --shapes 8191x8193 8191x8192
echo "ab rc $?"; date -u
python3 .ab/cmp.py $OUT/ab a,b,c | tee $OUT/ab/summary.txt
(cd $OUT/ab && rm -f build-*.log && tar czf ../ab.tgz . ) ; rm -rf $OUT/ab
date -u
