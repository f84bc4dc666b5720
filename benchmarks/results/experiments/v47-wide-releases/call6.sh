#!/usr/bin/env bash
# Session 2026-11-25 t, device call 6 (an H200): why the uint8 slice of 8192x8209 runs at
# 1.14x the copy and that of 16384x16401 at 1.08x (call 5). Input pitch against output row
# length (16384x8192 of 16384x8209; 8192x16384 of 8192x16401), and the block walk by the
# product's tuning knobs (GPUTRANSPOSE_TILE_GROUP tile-rows a group, GPUTRANSPOSE_INTERLEAVE
# interleaved tile columns), each setting in its own process, two rounds. From the repo root.
set -uo pipefail
. scripts/gpu-build-env
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf build torch_transpose/_C*.so
python3 setup.py build_ext --inplace > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
mkdir -p $OUT/walk
PYTHONPATH=$PWD timeout 120 python3 benchmarks/bench_pitches.py --out $OUT/shapes.json --reps 60 --rounds 6 --cases \
  uint8:8192x8192:8209 uint8:16384x8192:8209 uint8:8192x16384:16401 uint8:16384x16384:16401 \
  uint8:8192x8192:8208 uint8:16384x8192:8208 uint8:8192x16384:16400 2>&1 | tee $OUT/shapes.txt
CASES="uint8:8192x8192:8209 uint8:8191x8193 uint8:8191x8192 uint8:8192x8192 bfloat16:8191x8193 bfloat16:8192x8192:8209"
for round in 1 2; do
  for cfg in default g4 g16 g64 i1 g16i1; do
    case $cfg in
      default) env="" ;; g4) env="GPUTRANSPOSE_TILE_GROUP=4" ;; g16) env="GPUTRANSPOSE_TILE_GROUP=16" ;;
      g64) env="GPUTRANSPOSE_TILE_GROUP=64" ;; i1) env="GPUTRANSPOSE_INTERLEAVE=1" ;;
      g16i1) env="GPUTRANSPOSE_TILE_GROUP=16 GPUTRANSPOSE_INTERLEAVE=1" ;;
    esac
    env $env timeout 60 python3 benchmarks/bench_pitches.py --tag $cfg$round --reps 40 --rounds 4 \
      --out $OUT/walk/$cfg$round.json --cases $CASES > $OUT/walk/$cfg$round.txt 2>&1 || echo "$cfg$round failed"
  done
done
python3 - <<PY | tee $OUT/walk-table.txt
import glob, json, statistics, collections
rows = collections.defaultdict(lambda: collections.defaultdict(list))
for path in glob.glob("$OUT/walk/*.json"):
    for r in json.load(open(path))["rows"]:
        rows[f"{r['dtype']} {r['shape']}"][r["tag"][:-1]].append(r["ours_over_copy"])
cfgs = ["default", "g4", "g16", "g64", "i1", "g16i1"]
print(f"{'case':34s}" + "".join(f"{c:>16s}" for c in cfgs))
for case, by in rows.items():
    print(f"{case:34s}" + "".join(f"{statistics.median(by[c]):8.3f} ({min(by[c]):.3f})" if by[c] else f"{'-':>16s}" for c in cfgs))
PY
(cd $OUT && tar czf walk.tgz walk && rm -rf walk)
date -u
