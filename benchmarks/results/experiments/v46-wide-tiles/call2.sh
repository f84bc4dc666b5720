#!/usr/bin/env bash
# Session 2026-11-25 s, device call 2: every setting with evict_last input lines released
# by the last blocks (call 1's gain everywhere); the tile: rows a tile (default, 1 or 2)
# x threads (64, 128, 256), on 13 cases; then whether L2 is left as a copy leaves it.
# The wide tests under each setting, two rounds of wide_sweep.py (one process a setting),
# l2_after_op.py on the dims shapes. One build. From the repo root.
set -uo pipefail
ROOT=$PWD
E=benchmarks/results/experiments/v46-wide-tiles
G=$OUT/c2; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
python3 -c "import torch; print('torch', torch.__version__)" | tee -a $G/device.txt
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 PYTHONPATH=$ROOT:$ROOT/benchmarks
rm -rf build torch_transpose/_C*.so
GPUTRANSPOSE_PTXAS_VERBOSE=1 python3 setup.py build_ext --inplace > $G/build.log 2>&1 || { tail -40 $G/build.log; exit 1; }
grep -E "Compiling entry|Used [0-9]+ registers|spill" $G/build.log | sed "s/^ *//" | grep -A2 wide_element > $G/ptxas.txt
rm -f $G/build.log
V="GPUTRANSPOSE_WIDE_EVICT=1"
SETTINGS=("ev:$V" "t128ev:$V GPUTRANSPOSE_WIDE_THREADS=128" "r0t128ev:$V GPUTRANSPOSE_WIDE_ROWS_LOG2_MAX=0 GPUTRANSPOSE_WIDE_THREADS=128"
          "r0t64ev:$V GPUTRANSPOSE_WIDE_ROWS_LOG2_MAX=0 GPUTRANSPOSE_WIDE_THREADS=64" "r1t128ev:$V GPUTRANSPOSE_WIDE_ROWS_LOG2_MAX=1 GPUTRANSPOSE_WIDE_THREADS=128")
for s in "${SETTINGS[@]}"; do
  name=${s%%:*}; envs=""; [[ $s == *:* ]] && envs=${s#*:}
  # the evict_last kernels on small inputs too (a 1 MiB "L2")
  env $envs GPUTRANSPOSE_L2_BYTES=1048576 GPUTRANSPOSE_REQUIRE_CUDA=1 timeout 100 python3 -m pytest tests/test_transpose_cuda.py -q -p no:cacheprovider \
    -k "adjacent or wide" > $G/pytest-$name.log 2>&1; echo "pytest $name rc $? $(tail -1 $G/pytest-$name.log)" | tee -a $G/pytest-summary.txt
done
for round in 1 2; do
  for s in "${SETTINGS[@]}"; do
    name=${s%%:*}; envs=""; [[ $s == *:* ]] && envs=${s#*:}
    env $envs timeout 90 python3 $E/wide_sweep.py $name-r$round >> $G/sweep.jsonl 2>> $G/sweep.err || echo "$name r$round failed"
  done
done
python3 - $G/sweep.jsonl <<'PY' | tee $G/sweep-table.txt
import json, sys, collections, statistics
rows = [json.loads(l) for l in open(sys.argv[1])]
by = collections.defaultdict(list)
comp = collections.defaultdict(list)
for r in rows:
    key = r["dtype"] + " " + r["shape"]
    by[(key, r["tag"].rsplit("-", 1)[0])].append(r["ours_over_copy"])
    if "compile_over_copy" in r:
        comp[key].append(r["compile_over_copy"])
cases = list(dict.fromkeys(k[0] for k in by))
tags = list(dict.fromkeys(k[1] for k in by))
print("ours / copy, median of the rounds; compile / copy over all processes")
print(f"{'case':30}" + "".join(f"{t:>9}" for t in tags) + f"{'compile':>9}")
for c in cases:
    cc = f"{statistics.median(comp[c]):9.3f}" if comp[c] else f"{'':>9}"
    print(f"{c:30}" + "".join(f"{statistics.median(by[(c, t)]):9.3f}" for t in tags) + cc)
PY
tail -3 $G/sweep.err
for s in "${SETTINGS[@]:0:3}"; do
  name=${s%%:*}; envs=${s#*:}
  echo "l2 after op: $name" | tee -a $G/l2-after-op.txt
  env $envs timeout 120 python3 benchmarks/l2_after_op.py --dtypes bfloat16 float64 complex128 \
    --shapes 8x2048x32x128:1,2 4096x4096x4:0,1 --out $G/l2-after-op-$name.json 2>&1 | tee -a $G/l2-after-op.txt
done
date -u | tee -a $G/device.txt
tar -C $OUT -czf $OUT/c2.tgz c2 && rm -f $G/*.log $G/*.json $G/sweep.jsonl $G/sweep.err
