#!/usr/bin/env bash
# Session w, on the H100 that call 5 found (it ran nothing there): a build of the final code,
# then part 2 of the benchmark suite (4- to 16-byte types). This is the command as it ran
# (given inline to the device tool), from the repository root.
. scripts/gpu-build-env; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; python3 setup.py build_ext --inplace > /tmp/build.log 2>&1; echo "build rc $?"; PYTHONUNBUFFERED=1 PYTHONPATH=$PWD timeout 330 python3 benchmarks/bench_transpose.py --dtypes float32 float64 complex64 complex128 --tag h100-part2 --out-dir $OUT > $OUT/bench-part2-h100.log 2>&1; echo "part2 rc $?"; grep -hE "^(large|small|vs |extra)" $OUT/bench-part2-h100.log; date -u
