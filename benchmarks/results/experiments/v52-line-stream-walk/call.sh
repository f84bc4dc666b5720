#!/usr/bin/env bash
# v52 device calls 1-4: line_walk_probe.cu (checks, then its rounds, in one process). From the
# repository root. Calls 1-2 ran the probe with calls1-2.diff applied (`patch -p0 < calls1-2.diff`
# in this folder: no chunks flag, S = 2, 4, 8, 16 in both orders, two rounds).
set -uo pipefail
X=benchmarks/results/experiments/v52-line-stream-walk
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
nvcc -O3 -arch=sm_90 -std=c++17 -Xptxas -v $X/line_walk_probe.cu -o /tmp/lwp > $OUT/ptxas.txt 2>&1 || { tail $OUT/ptxas.txt; exit 1; }
grep -A3 "line_walk10" $OUT/ptxas.txt
timeout 400 /tmp/lwp > $OUT/probe.txt 2>&1; echo "probe rc $?"
cat $OUT/probe.txt
date -u
