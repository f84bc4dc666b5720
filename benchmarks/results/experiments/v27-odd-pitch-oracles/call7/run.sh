#!/usr/bin/env bash
# Session d, call 7: HEAD + GPUTRANSPOSE_FORCE (.ab/t_b). (1) uint8 output pitches P around
# 8192 (P x 8192 inputs): does the skewed kernel's time follow the misalignment's drift
# direction (P = 8191: 1.25x, 8193: 1.12x)? (2) output rows 16 mod 32 bytes (uint8 8208,
# 8240; bfloat16 8200; float32 8196): aligned kernel (partial sectors) against skewed.
cd "$(dirname "$0")/.."
ROOT=$PWD
O=$OUT/o; mkdir -p $O
. scripts/gpu-build-env
(cd .ab/t_b && python3 setup.py build_ext --inplace > $O/build.log 2>&1) || { tail $O/build.log; exit 1; }
echo "built $SECONDS s"
C1=""; for p in 8177 8181 8185 8187 8189 8190 8191 8193 8194 8195 8197 8199 8201 8205 8209 8217 8225 8255 8257; do C1="$C1 uint8/${p}x8192"; done
C1="$C1 bfloat16/8189x8192 bfloat16/8191x8192 bfloat16/8193x8192 bfloat16/8195x8192 float32/8191x8192 float32/8193x8192"
C2="uint8/8208x8192 uint8/8240x8192 uint8/16400x4096 bfloat16/8200x8192 float32/8196x8192 uint8/8224x8192"
for round in 1 2; do
  (cd .ab/t_b && PYTHONPATH=$ROOT/.ab/t_b timeout 150 python3 $ROOT/.ab/otime.py n$round $C1 $C2) >> $O/times.jsonl 2>> $O/err.txt
  (cd .ab/t_b && GPUTRANSPOSE_FORCE=skew PYTHONPATH=$ROOT/.ab/t_b timeout 100 python3 $ROOT/.ab/otime.py s$round $C2) >> $O/times.jsonl 2>> $O/err.txt
  echo "round $round $SECONDS s"
done
python3 .ab/ocmp.py $O/times.jsonl n,s | tee $O/summary.txt
tail -3 $O/err.txt
cd $O && rm -f build*.log && tar czf ../o.tgz . && cd $ROOT && rm -rf $O
