#!/usr/bin/env bash
# v51 device call 6 (session v): line_owner_probe.cu, two rounds; asked of an H200, served by an H100 (call 2 again). From the repository root.
set -uo pipefail
X=benchmarks/results/experiments/v51-line-aligned-walk
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
nvcc -O3 -arch=sm_90 -std=c++17 -Xptxas -v $X/line_owner_probe.cu -o /tmp/lop > $OUT/owner-ptxas.txt 2>&1 || { tail $OUT/owner-ptxas.txt; exit 1; }
for round in 1 2; do timeout 200 /tmp/lop > $OUT/owner-probe-$round.txt 2>&1; echo "round $round rc $?"; done
grep -h "cudaMemcpy\|^BEST" $OUT/owner-probe-*.txt
date -u
