#!/usr/bin/env bash
# Session 2026-11-25 r, device call 4: the wide-element kernel's units a thread (1, 2, 4, 8)
# x its walk (patches of 1 or 16 tile-rows), by the tuning knobs, two rounds of
# wide_sweep.py (one process a setting); then the default setting's dims rows with
# torch.compile beside it. One build. Run from the repository root.
set -uo pipefail
ROOT=$PWD
E=benchmarks/results/experiments/v45-adjacent-dims
G=$OUT/c4; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 PYTHONPATH=$ROOT:$ROOT/benchmarks
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > $G/build.log 2>&1 || { tail -40 $G/build.log; exit 1; }
rm -f $G/build.log
GPUTRANSPOSE_REQUIRE_CUDA=1 timeout 100 python3 -m pytest tests/test_transpose_cuda.py -q -p no:cacheprovider -k "adjacent or wide" \
  > $G/pytest.log 2>&1; echo "pytest rc $?"; tail -1 $G/pytest.log
for round in 1 2; do
  for k in 8 4 2 1; do
    for p in 1 16; do
      GPUTRANSPOSE_WIDE_UNITS=$k GPUTRANSPOSE_WIDE_PATCH=$p timeout 60 python3 $E/wide_sweep.py k$k-p$p-r$round >> $G/sweep.jsonl 2>> $G/sweep.err \
        || echo "k$k p$p r$round failed"
    done
  done
done
python3 - $G/sweep.jsonl <<'PY' | tee $G/sweep-table.txt
import json, sys, collections, statistics
rows = [json.loads(l) for l in open(sys.argv[1])]
by = collections.defaultdict(list)
for r in rows:
    by[(r["dtype"] + " " + r["shape"], r["tag"].rsplit("-", 1)[0])].append(r["ours_over_copy"])
cases = list(dict.fromkeys(k[0] for k in by))
tags = list(dict.fromkeys(k[1] for k in by))
print(f"{'case':32}" + "".join(f"{t:>9}" for t in tags))
for c in cases:
    print(f"{c:32}" + "".join(f"{statistics.median(by[(c, t)]):9.3f}" for t in tags))
PY
timeout 200 python3 benchmarks/bench_transpose.py --shapes 8x2048x32x128:1,2 4096x4096x4:0,1 \
  --dtypes uint8 bfloat16 float32 float64 complex128 --tag dims-default --out-dir $G > $G/bench-dims.log 2>&1; echo "bench rc $?"
grep -E ":[01],[12] " $G/bench-dims.log
date -u | tee -a $G/device.txt
