#!/usr/bin/env bash
# Session ad, call 1: on an H200, the final code's suite and tests there
# (gpu-check/session-z/call4.sh, whose H200 tables are v46's kernels); on an H100, v79's
# prepared A/B (experiments/v79-tall-tiles-prepared/call.sh; carry .ab prepared as its
# header says). Logs tarred into $OUT (at most 8 files come back).
set -uo pipefail
cd "$(dirname "$0")/../../../.."
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "$name"
case "$name" in
  *H200*) bash benchmarks/results/gpu-check/session-z/call4.sh ;;
  *) bash benchmarks/results/experiments/v79-tall-tiles-prepared/call.sh ;;
esac
(cd $OUT && for d in */; do tar -czf "${d%/}.tgz" "$d" && rm -rf "$d"; done; ls -la)
