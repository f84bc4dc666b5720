#!/usr/bin/env bash
# column-chunks on the GPU (README.md), one machine, about 240 s: the development build of the
# tree (column chunks by the override only: column_chunks=1) and the batched-small kernel's
# registers; the A/B of the rule against column_chunks=1 on the sweep's distribution (seeds
# 101-103, up to 512 MiB) in one process, the cases compared by class; the H100 sweep's own
# cases that motivated it (seed 0: float8 (54, 14037440), int8 (87, 222076), uint8 (119,
# 591210) at an offset, and the mirrored ones the override leaves alone) by the same case
# runner; the column-chunk and batched-small GPU tests; compute-sanitizer's four tools on
# the column-chunk cases of scripts/sanitizer_cases.py, forced.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
OUT=${OUT:-$PWD/experiment-out}
mkdir -p "$OUT"
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD
status=0
P=experiments/column-chunks/column-chunks.patch  # staged: applied here, on the device's copy
if ! git apply --check -R "$P" 2>/dev/null; then git apply "$P" || exit 1; fi
nvidia-smi --query-gpu=name --format=csv,noheader
SECONDS=0
GPUTRANSPOSE_DEVELOPMENT=1 GPUTRANSPOSE_PTXAS_VERBOSE=1 python3 setup.py build_ext --inplace \
  > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "build ${SECONDS}s"
for t in h t j 5uint2 5uint4; do  # 1-, 2-, 4-, 8-, 16-byte elements; back to back, rows apart
  for apart in 0 1; do
    echo "batched_small<$t, rows_apart=$apart>: $(grep -A3 "Compiling entry function '[^']*batched_small_transpose_kernelILb${apart}E${t}E" \
      "$OUT/build.log" | grep -oE "Used [0-9]+ registers|[0-9]+ bytes spill stores" | sort -u | tr '\n' ' ')"
  done
done
timeout 150 python3 benchmarks/bench_ab.py --variant rule= --variant chunks=column_chunks=1 \
  --seeds 101,102,103 --time-limit 80 --out "$OUT/ab-chunks.json" > "$OUT/ab-chunks.log" 2>&1 || status=1
tail -10 "$OUT/ab-chunks.log"
python3 - "$OUT/ab-chunks.json" <<'PY' || status=1
import json, math, re, sys
records = [r for r in json.load(open(sys.argv[1]))["records"] if "ratio" in r and not r.get("wrong")]
def e_of(r):
    return int(re.search(r"e=(\d+)", r["kernels"]["chunks"]).group(1))
def geo(sel):
    return math.exp(sum(math.log(r["ratio"]["chunks"] / r["ratio"]["rule"]) for r in sel) / len(sel))
taken = [r for r in records if "column_chunks=" in (r["kernels"]["chunks"] or "")]
print(f"{len(taken)} cases in column chunks (chunks/rule time, geomean)")
for name, sel in (("1-2 byte elements", [r for r in taken if e_of(r) <= 2]),
                  ("4-16 byte elements", [r for r in taken if e_of(r) >= 4]),
                  ("1-2 byte, tiles under half filled",
                   [r for r in taken if e_of(r) <= 2 and (r["tile_utilization"]["rule"] or 1) < 0.5]),
                  ("16 MiB+", [r for r in taken if r["bytes"] >= 16 << 20])):
    if sel:
        print(f"{name}: {len(sel)} cases, chunks/rule {geo(sel):.3f}")
for r in sorted(taken, key=lambda r: r["ratio"]["chunks"] / r["ratio"]["rule"]):
    rule = re.sub(r", l2=\w+|load=|store=|tiling=", "", r["kernels"]["rule"] or "")
    print(f"  s{r['seed']} {r['dtype']} {r['shape']} {r['dims']} {r['view']} {r['bytes'] >> 20} MiB "
          f"{rule} util {r['tile_utilization']['rule'] or 0:.2f}: {r['ratio']['rule']:.2f}x -> "
          f"{r['ratio']['chunks']:.2f}x a copy ({r['kernels']['chunks'].split(', ')[-1][:-1]}; "
          f"aten {r['ratio']['aten']:.2f}x)")
PY
timeout 80 python3 - <<'PY' || status=1
# The sweep's seed-0 cases of the brief, by the A/B's case runner (rule and chunks the same
# code on the mirrored ones: the run's noise).
import argparse, sys
sys.path.insert(0, "benchmarks")
import torch, torch_transpose, bench_ab, bench_sweep as sweep
variants = {"rule": {}, "chunks": {"column_chunks": 1}}
ab = bench_ab.ABSweep(argparse.Namespace(reps=10, rounds=3, warmup=2, no_compile=True), variants,
                      torch_transpose._C._transpose_tuned)
for case in sweep.sample_cases(500, 0):
    if case["id"] not in (255, 332, 222, 228, 261, 336):
        continue
    x = sweep.build_input(case, torch, getattr(torch, case["dtype"]), device="meta")
    kernels = {n: torch_transpose._C._explain_tuned(x, *case["dims"], **o).get("kernel") or "aten"
               for n, o in variants.items()}
    r = ab.record(case, 0, kernels)
    if "ratio" not in r or r["wrong"]:
        print(f"s0#{case['id']} {sweep.describe(case)}: {r.get('skipped') or r.get('errors') or 'WRONG'}")
        continue
    print(f"s0#{case['id']} {sweep.describe(case)}: rule {r['ratio']['rule']:.2f}x -> chunks "
          f"{r['ratio']['chunks']:.2f}x a copy (aten {r['ratio']['aten']:.2f}x) "
          f"[{kernels['chunks'].split(', ')[-1][:-1]}]")
PY
timeout 120 python3 -m pytest tests/test_transpose_cuda.py tests/test_fuzz.py -q -p no:cacheprovider \
  -k "column_chunks or barely_filled or pitch_apart" > "$OUT/pytest.log" 2>&1 || status=1
tail -2 "$OUT/pytest.log"
for tool in memcheck racecheck initcheck synccheck; do
  log="$OUT/sanitize-$tool.log"
  PYTORCH_NO_CUDA_MEMORY_CACHING=1 timeout 90 compute-sanitizer --tool "$tool" --error-exitcode 9 \
    python3 scripts/sanitizer_cases.py --column-chunks 1 "column chunks" > "$log" 2>&1 || status=1
  echo "$tool: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1); $(grep -cE 'column_chunks=' "$log") column-chunk cases; $(grep -E '^[0-9]+ cases' "$log")"
done
echo "total ${SECONDS}s, status $status"
exit $status
