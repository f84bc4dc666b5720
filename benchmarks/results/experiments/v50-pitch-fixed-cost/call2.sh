#!/usr/bin/env bash
# v50 device call 2 (an H200): line_split_probe.cu, two rounds. From the repository root.
set -uo pipefail
X=benchmarks/results/experiments/v50-pitch-fixed-cost
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
nvcc -O3 -arch=sm_90 -std=c++17 -Xptxas -v $X/line_split_probe.cu -o /tmp/lsp > $OUT/ptxas.txt 2>&1 || { tail $OUT/ptxas.txt; exit 1; }
for round in 1 2; do timeout 250 /tmp/lsp > $OUT/probe-$round.txt 2>&1; echo "round $round rc $?"; done
grep -h "cudaMemcpy\|^BEST" $OUT/probe-*.txt
date -u
