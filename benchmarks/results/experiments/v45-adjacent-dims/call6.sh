#!/usr/bin/env bash
# Session 2026-11-25 r, device call 6: the final v45 code's benchmark suite (its dims shapes
# included), clean build, in two parts (gpu-check/run-final-suite-v42.sh, into $OUT/s).
# Run from the repository root.
set -uo pipefail
. scripts/gpu-build-env
rm -rf build torch_transpose/_C*.so
OUT=$OUT SUITE_TAG=h200 bash benchmarks/results/gpu-check/run-final-suite-v42.sh
grep -hE ":[01],[12] " $OUT/s/bench-part*-h200.log
