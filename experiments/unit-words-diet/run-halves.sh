#!/usr/bin/env bash
# The words-path patch's halves timed apart, in one device call: builds the tree as is and
# with each patch (incrementally, in place), keeps each build's package, then times the
# sweep's words cases (seeds 0, 101, 102) under each build, twice, interleaved.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/experiment-out}
mkdir -p "$OUT"
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
E=experiments/unit-words-diet
VARIANTS=${VARIANTS:-base input-half output-half unit-words-diet}
for v in $VARIANTS; do
  [ "$v" = base ] || git apply "$E/$v.patch" || exit 1
  touch csrc/core/cuda/launch_unit_tiled.cu csrc/core/cuda/unit_tiled_transpose.cuh  # rebuild
  GPUTRANSPOSE_DEVELOPMENT=1 GPUTRANSPOSE_PTXAS_VERBOSE=1 python3 setup.py build_ext --inplace \
    > "$OUT/build-$v.log" 2>&1 || { tail -30 "$OUT/build-$v.log"; exit 1; }
  echo "$v: $(grep -A3 'Compiling entry.*unit_tiled_transpose_kernel' "$OUT/build-$v.log" | grep -o 'Used [0-9]* registers' | sort | uniq -c | tr '\n' ' ')"
  mkdir -p "/tmp/builds/$v" && cp -r torch_transpose "/tmp/builds/$v/"
  [ "$v" = base ] || git apply -R "$E/$v.patch" || exit 1
done
for round in 1 2; do
  [ "$round" = 1 ] || [ "$SECONDS" -lt 230 ] || break
  for v in $VARIANTS; do
    PYTHONPATH=/tmp/builds/$v timeout 120 python3 $E/time_words.py --seeds ${SEEDS:-0,101} --time-limit 75 --out "$OUT/$v-$round.json" 2>&1 | tail -2
  done
done
cd "$OUT" && python3 "$OLDPWD/$E/compare_words.py" base-1.json $(ls *-[12].json | grep -v '^base-1.json$') --list 4
