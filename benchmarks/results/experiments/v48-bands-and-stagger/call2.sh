#!/usr/bin/env bash
# v48 device call 2: the first wave's blocks started out of step (GPUTRANSPOSE_STAGGER_NS in
# the working tree, stagger.diff) against HEAD (.ab/base, `scripts/ab-bench prepare HEAD`),
# alternating rounds in one machine: a = HEAD, b = stagger 0, c/d/e = 1000/2000/4000 ns a slot.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
ROOT=$PWD
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
G=${OUT:-$ROOT/ab-out}/v48-2; mkdir -p $G/logs
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
for t in .ab/base .; do
  (cd $t && rm -rf build torch_transpose/_C*.so && MAX_JOBS=8 python3 setup.py build_ext --inplace > $G/logs/build-$(basename $(realpath $t)).log 2>&1; echo "built $t rc $?") &
done
wait
CASES="uint8:8192x8192:8209 uint8:8191x8193 uint8:8192x8192 uint8:8191x8192 uint8:16384x16384:16401 bfloat16:8191x8193 bfloat16:8192x8192:8209 float32:8192x8192"
for round in 1 2 3; do
  PYTHONPATH=$ROOT/.ab/base timeout 120 python3 benchmarks/bench_pitches.py --tag a$round --cases $CASES --out $G/logs/a$round.json > $G/logs/a$round.log 2>&1 || echo "a$round failed"
  for v in b:0 c:1000 d:2000 e:4000; do
    GPUTRANSPOSE_STAGGER_NS=${v#*:} PYTHONPATH=$ROOT timeout 120 python3 benchmarks/bench_pitches.py --tag ${v%%:*}$round \
      --cases $CASES --out $G/logs/${v%%:*}$round.json > $G/logs/${v%%:*}$round.log 2>&1 || echo "${v%%:*}$round failed"
  done
  echo "round $round done $(date -u +%T)"
done
python3 benchmarks/ab_compare.py --trees a,b,c,d,e $G/logs | tee $G/summary.txt
tar -czf $G/logs.tgz -C $G logs && rm -rf $G/logs
date -u | tee -a $G/device.txt
