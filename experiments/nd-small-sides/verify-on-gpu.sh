#!/usr/bin/env bash
# nd tiles with short sides and small tiles (flattened phases, groups of tiles) on the GPU,
# one machine, about 420 s: the development build and the nd kernels' registers; the permute
# tests; memcheck and racecheck on the "nd tiles" sanitizer cases with nd tiles forced; the A/B
# of the rule against nd_tiles=1 (forced wherever the plan has them) on the permute sweep's
# distribution (seeds 101-103) in one process; then the other CUDA test files.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
P=experiments/nd-small-sides/nd-small-sides.patch  # staged: applied here, on the device's copy
if ! git apply --check -R "$P" 2>/dev/null; then git apply "$P" || exit 1; fi
OUT=${OUT:-$PWD/experiment-out}
mkdir -p "$OUT"
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD GPUTRANSPOSE_FUZZ_PROFILE=ci GPUTRANSPOSE_HUGE=0
status=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "import torch; print('torch', torch.__version__)"
SECONDS=0
GPUTRANSPOSE_DEVELOPMENT=1 GPUTRANSPOSE_PTXAS_VERBOSE=1 python3 setup.py build_ext --inplace \
  > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "build ${SECONDS}s; nd kernels: $(grep -A3 "Compiling entry function '[^']*nd_tile_transpose_kernel" "$OUT/build.log" \
  | grep -oE "Used [0-9]+ registers|[1-9][0-9]* bytes spill stores" | sort | uniq -c | tr '\n' ' ')"
timeout 90 python3 -m pytest tests/test_permute.py -q -p no:cacheprovider -x > "$OUT/pytest-permute.log" 2>&1 || status=1
echo "test_permute: $(tail -1 "$OUT/pytest-permute.log") (${SECONDS}s)"
for tool in memcheck racecheck; do
  PYTORCH_NO_CUDA_MEMORY_CACHING=1 timeout 45 compute-sanitizer --tool "$tool" --error-exitcode 9 \
    python3 scripts/sanitizer_cases.py --nd-tiles 1 "nd tiles" > "$OUT/sanitize-$tool.log" 2>&1 || status=1
  echo "$tool: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitize-$tool.log" | tail -1); $(grep -E '^[0-9]+ cases' "$OUT/sanitize-$tool.log") (${SECONDS}s)"
done
timeout $((330 - SECONDS)) python3 benchmarks/bench_ab.py --permute --variant rule= --variant nd=nd_tiles=1 \
  --seeds 101,102,103 --time-limit $((300 - SECONDS)) --out "$OUT/ab-nd-permute.json" > "$OUT/ab-nd-permute.log" 2>&1 || status=1
tail -6 "$OUT/ab-nd-permute.log"
echo "A/B done (${SECONDS}s)"
timeout $((415 - SECONDS)) python3 -m pytest tests/test_transpose_cuda.py tests/test_fuzz.py tests/test_benchmarks.py \
  -q -p no:cacheprovider > "$OUT/pytest-rest.log" 2>&1 || status=1
echo "other CUDA tests: $(tail -1 "$OUT/pytest-rest.log")"
echo "total ${SECONDS}s, status $status"
exit $status
