#!/usr/bin/env bash
# v39 call 6: a = the v39 commit, b = evict_last (released by the last tiles) in the skewed
# aligned-load 2-byte kernel too, bound to two blocks a SM (64 registers, 20 bytes
# spilled), c = b and the 1-byte one (bound to four, 32 registers).
set -uo pipefail
cd "$(dirname "$0")/../../../.."
CASES="bfloat16:8191x8192 float16:8191x8192 uint8:8191x8192 bool:8191x8192 float32:8191x8192 bfloat16:8192x8192"
AB_ROUNDS=3 scripts/ab-bench pitches --cases $CASES --rounds 2
