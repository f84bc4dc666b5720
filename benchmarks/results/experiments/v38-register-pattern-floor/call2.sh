#!/usr/bin/env bash
# v38 device call 2: which of the real kernels' load ingredients the register-only
# pattern lacks: plain, .cg, the L2::256B prefetch hint, both (reg_pattern.cu loads), two rounds.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
ROOT=$PWD
X=benchmarks/results/experiments/v38-register-pattern-floor
G=${OUT:-$ROOT/ab-out}/v38-2; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
nvcc -O3 -arch=sm_90 -std=c++17 -Xptxas -v $X/reg_pattern.cu -o /tmp/rp > $G/ptxas.txt 2>&1 || { tail $G/ptxas.txt; exit 1; }
for round in 1 2; do timeout 200 /tmp/rp loads > $G/loads-$round.txt 2>&1; echo "loads round $round rc $?"; done
for f in $G/loads-*.txt; do echo "== $f"; grep -E "cudaMemcpy [0-9]| ld" $f | grep -vE "^bf16 8192" ; done
date -u | tee -a $G/device.txt
