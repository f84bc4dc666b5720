#!/usr/bin/env bash
# v44 call 8 (H100): call 7's script, the same trees, on an H100. Run from the repository
# root, carry .ab.
exec bash "$(dirname "$0")/../call7/run.sh"
