#!/usr/bin/env bash
# Session 2026-11-25 s, device call 1: the wide-element kernel's tile (one output row a
# tile, 128 or 256 threads) and evict_last input lines released by the last blocks, by the
# v46 knobs: the wide tests under each setting, then two rounds of wide_sweep.py (one
# process a setting) with torch.compile beside the heads. One build. From the repo root.
set -uo pipefail
ROOT=$PWD
E=benchmarks/results/experiments/v46-wide-tiles
G=$OUT/c1; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
python3 -c "import torch; print('torch', torch.__version__)" | tee -a $G/device.txt
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 PYTHONPATH=$ROOT:$ROOT/benchmarks
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > $G/build.log 2>&1 || { tail -40 $G/build.log; exit 1; }
grep -E "Compiling entry|Used [0-9]+ registers|spill" $G/build.log | sed "s/^ *//" | grep -A2 wide_element > $G/ptxas.txt
rm -f $G/build.log
SETTINGS=("base" "r0:GPUTRANSPOSE_WIDE_ROWS_LOG2_MAX=0" "r0t128:GPUTRANSPOSE_WIDE_ROWS_LOG2_MAX=0 GPUTRANSPOSE_WIDE_THREADS=128"
          "ev:GPUTRANSPOSE_WIDE_EVICT=1" "r0ev:GPUTRANSPOSE_WIDE_ROWS_LOG2_MAX=0 GPUTRANSPOSE_WIDE_EVICT=1"
          "r0t128ev:GPUTRANSPOSE_WIDE_ROWS_LOG2_MAX=0 GPUTRANSPOSE_WIDE_THREADS=128 GPUTRANSPOSE_WIDE_EVICT=1")
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
date -u | tee -a $G/device.txt
