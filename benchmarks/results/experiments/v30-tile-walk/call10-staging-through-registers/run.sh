#!/usr/bin/env bash
# Session 2026-11-21 g, device call 10 (H200): A/B a = HEAD (v30: staged rows copied by
# cp.async.cg), b = staged rows through registers (ld.global.cg.L2::256B 128-bit loads, all
# issued, then st.shared), c = b with plain (L1-allocating) loads.
cd "$(dirname "$0")/.."
ROOT=$PWD
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
OUT=$OUT/ab AB_ROUNDS=3 timeout 400 scripts/ab-bench run --no-compile --reps 30 --rounds 3 \
  --dtypes uint8 float8_e4m3fn \
  --shapes 8191x8193 '8192x8209[:,:-17]' 8191x8192 8192x8192 | grep -c tiled
date -u
python3 .ab/cmp.py $OUT/ab a,b,c | tee $OUT/ab/summary.txt
(cd $OUT/ab && tar czf $OUT/ab.tgz . ) ; date -u
