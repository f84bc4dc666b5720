#!/usr/bin/env bash
# Session e, device call 2: per-block trace of the skewed uint8 kernel on 8191x8192
# (step -1) vs 8193x8192 (+1), the aligned kernel on 8192^2 (.ab/t_trace build).
set -uo pipefail
T0=$SECONDS
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
cd .ab/t_trace && python3 setup.py build_ext --inplace > /tmp/build.log 2>&1; echo "built rc $? in $((SECONDS-T0)) s"
tail -3 /tmp/build.log | cut -c1-200
PYTHONPATH=$PWD timeout 200 python3 ../trace.py 8191x8192 8193x8192 8192x8192 2>&1 | tee $OUT/trace.txt
echo "total $((SECONDS-T0)) s"
