#!/usr/bin/env bash
# v44 call 10 (H200): call 9's script again, on the code whose rule asks for >= 6016 bits of
# memory bus (what CUDA reports for the H200). Run from the repository root, carry .ab.
exec bash "$(dirname "$0")/../call9/run.sh"
