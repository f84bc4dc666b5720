#!/usr/bin/env bash
# v51 device call 8 (session v): shear_probe.cu with SHEAR_WIDE and SHEAR_SKIP (two rounds in one process). From the
# repository root.
set -uo pipefail
X=benchmarks/results/experiments/v51-line-aligned-walk
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
nvcc -O3 -arch=sm_90 -std=c++17 -Xptxas -v $X/shear_probe.cu -o /tmp/shp > $OUT/shear-ptxas.txt 2>&1 || { tail $OUT/shear-ptxas.txt; exit 1; }
timeout 200 /tmp/shp > $OUT/shear-probe.txt 2>&1; echo "probe rc $?"
grep -h "ownership\|coverage\|cudaMemcpy\|^BEST" $OUT/shear-probe.txt
date -u
