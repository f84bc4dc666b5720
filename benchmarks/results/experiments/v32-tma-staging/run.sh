#!/usr/bin/env bash
# Session i, call 1: TMA phase-map loads for unaligned 1-/2-byte rows. One build;
# a = GPUTRANSPOSE_TMA=0 (the staged / word-shifted kernels), b = TMA. Tests first.
cd "$(dirname "$0")/.."
ROOT=$PWD
O=$OUT/o; mkdir -p $O
. scripts/gpu-build-env
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $O/device.txt
python3 -c "import torch; print(torch.__version__, torch.version.cuda)" >> $O/device.txt
python3 setup.py build_ext --inplace > $O/build.log 2>&1 || { echo "build failed"; tail -30 $O/build.log; }
echo "built $SECONDS s"
GPUTRANSPOSE_REQUIRE_CUDA=1 timeout 300 python3 -m pytest -q -x tests/test_transpose_cuda.py > $O/pytest.txt 2>&1
tail -5 $O/pytest.txt
echo "tests $SECONDS s"
C="uint8/8191x8193 uint8/8192x8209[:,:-17] float8_e4m3fn/8191x8193 bool/8192x8209[:,:-17] uint8/8191x8192 uint8/1023x1025 uint8/4095x4097 uint8/2x4096x4095"
for round in 1 2 3; do
  GPUTRANSPOSE_TMA=0 PYTHONPATH=$ROOT timeout 100 python3 .ab/otime.py a$round $C >> $O/times.jsonl 2>> $O/err.txt
  PYTHONPATH=$ROOT timeout 100 python3 .ab/otime.py b$round $C >> $O/times.jsonl 2>> $O/err.txt
  echo "round $round $SECONDS s"
done
for round in 1 2; do
  GPUTRANSPOSE_TMA=0 PYTHONPATH=$ROOT python3 .ab/host_tma.py a$round >> $O/host.jsonl 2>> $O/err.txt
  PYTHONPATH=$ROOT python3 .ab/host_tma.py b$round >> $O/host.jsonl 2>> $O/err.txt
done
cat $O/host.jsonl
python3 .ab/ocmp.py $O/times.jsonl a,b | tee $O/summary.txt
tail -3 $O/err.txt
cd $O && tar czf ../o.tgz . && cd $ROOT && rm -rf $O
