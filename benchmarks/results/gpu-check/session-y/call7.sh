#!/usr/bin/env bash
# Session y, v62 on whichever card comes (on an H200 only v58's call 8, as call 6 says; carry
# .ab): a build, then scripts/sanitize whole, compute-sanitizer's six passes (memcheck,
# racecheck, initcheck, synccheck; memcheck and racecheck on a 64 KiB L2 with staged 2-byte
# rows forced on). From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$name" in *H200*) exec bash benchmarks/results/experiments/v58-staged-2-byte-past-l2/call8.sh ;; esac
G=$OUT/c7; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
. scripts/gpu-build-env; export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
python3 setup.py build_ext --inplace > /tmp/build.log 2>&1; echo "build rc $?"
OUT=$G timeout 480 bash scripts/sanitize; echo "sanitize rc $?"
date -u | tee -a $G/device.txt
