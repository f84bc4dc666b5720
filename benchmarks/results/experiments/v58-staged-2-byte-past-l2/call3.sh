#!/usr/bin/env bash
# v58 device call 3 (session x): call 8 (call 1 with a fourth tree) on an H200 only; on any
# other card it stops at once (H100s have answered the A/B already). Carry .ab, prepared as
# call 8 says; from the repository root.
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "$name"; case "$name" in *H200*) ;; *) echo "not an H200: nothing run"; exit 3 ;; esac
exec bash "$(dirname "$0")/call8.sh"
