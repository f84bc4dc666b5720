#!/usr/bin/env bash
# The running experiment's GPU verification (experiments/nd-routing/README.md), on any card
# (the A/B compares variants in one process):
#   check: apply the patch (skipped where applied), build, the permute and transpose CUDA
#          test files (CUDA required), about 150 s;
#   ab:    bench_ab of the rule against nd tiles wherever the plan has them, on the permute
#          sweep's random cases and on the transpose sweep's (seeds 101-103), about 330 s.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/experiment-out}
mkdir -p "$OUT"
p=experiments/nd-routing/nd-routing.patch
git apply --check -R "$p" 2>/dev/null || git apply "$p" || exit 1
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1 GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD GPUTRANSPOSE_FUZZ_PROFILE=ci GPUTRANSPOSE_HUGE=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
GPUTRANSPOSE_DEVELOPMENT=1 python3 setup.py build_ext --inplace > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
status=0
case "${1:-check}" in
  check)
    timeout 200 python3 -m pytest tests/test_permute.py tests/test_transpose_cuda.py \
      tests/test_benchmarks.py -q -p no:cacheprovider 2>&1 | tail -15 > "$OUT/pytest-tail.txt"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
    tail -6 "$OUT/pytest-tail.txt"
    ;;
  ab)
    timeout 200 python3 benchmarks/bench_ab.py --permute --variant rule= --variant nd=nd_tiles=1 \
      --seeds 101,102,103 --cases 200 --time-limit 180 --out "$OUT/ab-nd-permute.json" \
      > "$OUT/ab-permute.log" 2>&1 || status=1
    grep -E "^(all|A|B|C|copy)," "$OUT/ab-permute.log"; tail -1 "$OUT/ab-permute.log"
    timeout 120 python3 benchmarks/bench_ab.py --variant rule= --variant nd=nd_tiles=1 \
      --seeds 101,102,103 --time-limit 100 --out "$OUT/ab-nd-transpose.json" \
      > "$OUT/ab-transpose.log" 2>&1 || status=1
    grep -E "^(all|dim|odd)" "$OUT/ab-transpose.log"; tail -1 "$OUT/ab-transpose.log"
    ;;
esac
exit $status
