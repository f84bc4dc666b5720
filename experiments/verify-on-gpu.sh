#!/usr/bin/env bash
# The running experiments' GPU verification (experiments/*/README.md), on the card the
# committed sweep names (H100):
#   check: apply every experiment's patch (each applies alone too), build, the CUDA test
#          files (CUDA required), compute-sanitizer's four tools on the cases they touch
#          (about 350 s);
#   sweep: bench_ab of wide_16 (seeds 101-103), then the same build's sweep, compared case by
#          case with the committed one (about 370 s);
#   permute: the same build's permute sweep (about 260 s; the committed one, permute-h200,
#            is 538169f's on an H200: rerun it on both cards).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/experiment-out}
mkdir -p "$OUT"
for p in experiments/unit-words-output-order/output-order.patch experiments/wide-16/wide-16.patch \
         experiments/nd-tiles/nd-tiles.patch; do
  git apply --check -R "$p" 2>/dev/null || git apply "$p" || exit 1
done
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD GPUTRANSPOSE_FUZZ_PROFILE=ci GPUTRANSPOSE_HUGE=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
GPUTRANSPOSE_DEVELOPMENT=1 GPUTRANSPOSE_PTXAS_VERBOSE=1 python3 setup.py build_ext --inplace \
  > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "kernels $(grep -c 'Used [0-9]* registers' "$OUT/build.log"), with spills:" \
  "$(grep spill "$OUT/build.log" | grep -vc ' 0 bytes spill stores, 0 bytes spill loads')"
status=0
case "${1:-check}" in
  check)
    timeout 200 python3 -m pytest tests/test_transpose_cuda.py tests/test_fuzz.py tests/test_permute.py \
      tests/test_benchmarks.py -q -p no:cacheprovider 2>&1 | tail -15 > "$OUT/pytest-tail.txt"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
    tail -6 "$OUT/pytest-tail.txt"
    for tool in memcheck racecheck initcheck synccheck; do
      PYTORCH_NO_CUDA_MEMORY_CACHING=1 timeout 90 compute-sanitizer --tool "$tool" --error-exitcode 9 \
        python3 scripts/sanitizer_cases.py --tile-group-rows 2 words 3-byte one-unit "16-byte wide" \
          "nd tiles" "all-2 reversal" \
        > "$OUT/sanitize-$tool.log" 2>&1 || status=1
      echo "$tool: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitize-$tool.log" | tail -1);" \
        "$(grep -E 'cases, ' "$OUT/sanitize-$tool.log")"
    done
    ;;
  sweep)
    timeout 90 python3 benchmarks/bench_ab.py --variant rule= --variant tiled=wide_16=0 \
      --variant wide=wide_16=1 --seeds 101,102,103 --time-limit 60 --out "$OUT/ab-wide16.json" \
      > "$OUT/ab.log" 2>&1
    tail -25 "$OUT/ab.log"
    timeout 320 python3 benchmarks/bench_sweep.py --out-dir "$OUT" --time-limit 290 > "$OUT/sweep.log" 2>&1
    tail -4 "$OUT/sweep.log"
    sweep=$(ls "$OUT"/sweep-*.json | head -1)
    python3 benchmarks/compare_sweeps.py "benchmarks/results/$(basename "$sweep")" "$sweep" --list 12
    python3 benchmarks/compare_sweeps.py "benchmarks/results/$(basename "$sweep")" "$sweep" \
      --kernel access=words | head -12
    ;;
  permute)
    timeout 300 python3 benchmarks/bench_permute.py --out-dir "$OUT" --time-limit 240 > "$OUT/permute.log" 2>&1
    tail -20 "$OUT/permute.log"
    ;;
esac
exit $status
