#!/usr/bin/env bash
# The experiment in one device call (about 6 minutes on an H100): apply the patch to the
# device's copy of the tree, build, run the unit-tiled CUDA tests and compute-sanitizer's
# four tools on the words cases, then the sweep, compared case by case with the committed
# one (run it on the card the committed sweep names).
#   device: bash experiments/unit-words-diet/run-on-gpu.sh      (results in $OUT)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/experiment-out}
mkdir -p "$OUT"
git apply experiments/unit-words-diet/unit-words-diet.patch || exit 1
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD
nvidia-smi --query-gpu=name --format=csv,noheader
GPUTRANSPOSE_DEVELOPMENT=1 GPUTRANSPOSE_PTXAS_VERBOSE=1 python3 setup.py build_ext --inplace \
  > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "kernels $(grep -c 'Used [0-9]* registers' "$OUT/build.log"), with spills:" \
  "$(grep spill "$OUT/build.log" | grep -vc ' 0 bytes spill stores, 0 bytes spill loads')"
status=0
timeout 150 python3 -m pytest tests/test_transpose_cuda.py -q -p no:cacheprovider \
  -k "unit or odd or narrow or one_unit" 2>&1 | tail -3
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
for tool in memcheck racecheck initcheck synccheck; do
  PYTORCH_NO_CUDA_MEMORY_CACHING=1 timeout 100 compute-sanitizer --tool "$tool" --error-exitcode 9 \
    python3 scripts/sanitizer_cases.py --tile-group-rows 2 words 3-byte one-unit \
    > "$OUT/sanitize-$tool.log" 2>&1 || status=1
  echo "$tool: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitize-$tool.log" | tail -1);" \
    "$(grep -E 'cases, ' "$OUT/sanitize-$tool.log")"
done
timeout 330 python3 benchmarks/bench_sweep.py --out-dir "$OUT" --time-limit 290 2>&1 | tail -12
sweep=$(ls "$OUT"/sweep-*.json | head -1)
python3 benchmarks/compare_sweeps.py "benchmarks/results/$(basename "$sweep")" "$sweep" --list 15
exit $status
