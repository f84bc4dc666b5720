#!/usr/bin/env bash
# Session 2026-11-22 j, device call 9 (H200): variant c again (whole-word cut reads in the skewed
# 1-byte aligned-load kernel too), a = b = HEAD (9d739f2's code = e01935d's kernels) for the noise.
cd "$(dirname "$0")/.."
CASES="uint8:8191x8192 uint8:8191x8193:8208 uint8:8193x8192 uint8:16383x16384 uint8:4095x4096 uint8:8192x8192 uint8:8192x8193:8208" \
ROUNDS="1 2 3" bash benchmarks/results/experiments/v33-cut-micro-blocks/run-ab.sh
cd $OUT && tar czf v33-call9.tgz v33/ab v33/ab-summary.txt v33/pytest-tail.txt v33/device.txt
