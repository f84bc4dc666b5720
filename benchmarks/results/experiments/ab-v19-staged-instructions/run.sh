#!/usr/bin/env bash
# A/B main (a) vs next/staged-instructions (b) on H200, then the GPU tests on b.
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "import torch; print('torch', torch.__version__, 'CUDA', torch.version.cuda)"
git_rev=$(cat .ab/rev 2>/dev/null); echo "b = $git_rev"
T0=$SECONDS
OUT=$OUT/ab AB_ROUNDS=3 scripts/ab-bench run --no-compile --reps 30 --rounds 3 \
  --dtypes uint8 bool float8_e4m3fn --shapes 8191x8193 8191x8192 "8192x8209[:,:-17]" 8192x8192 4096x32768
echo "A/B took $((SECONDS-T0)) s"; tail -3 $OUT/ab/build-b.log
python3 .ab/cmp.py $OUT/ab a,b | tee $OUT/ab/compare.txt
T0=$SECONDS
export GPUTRANSPOSE_REQUIRE_CUDA=1 GPUTRANSPOSE_HUGE=1 GPUTRANSPOSE_FUZZ_PROFILE=gpu PYTHONPATH=$PWD
timeout 330 python3 -m pytest tests/test_transpose_cuda.py tests/test_fuzz.py tests/test_pt2.py -q -rs -p no:cacheprovider --maxfail=20 --durations=5 2>&1 | tee $OUT/pytest-b.log | tail -15
echo "tests took $((SECONDS-T0)) s"
