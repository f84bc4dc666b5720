"""v45 sweep of the wide-element kernel's knobs (GPUTRANSPOSE_WIDE_UNITS, _WIDE_PATCH, read
once per process): times gputranspose and the same-shape copy, interleaved in rounds, on
wide-element cases of several element sizes and input row pitches; one JSON line a case.
    python3 wide_sweep.py TAG      (from the repository root, PYTHONPATH=. and benchmarks)"""
import json
import sys

import torch

import torch_transpose  # noqa: F401  (registers the op)
from bench_transpose import DTYPES, rotated_inputs, time_interleaved_ms

# dtype, shape, dims: element bytes, input rows apart
CASES = [
    ("uint8", (8, 2048, 32, 128), (1, 2)),        # 128 B, 4 KiB
    ("bfloat16", (8, 2048, 32, 128), (1, 2)),     # 256 B, 8 KiB
    ("float64", (8, 2048, 32, 128), (1, 2)),      # 1 KiB, 32 KiB
    ("complex128", (8, 2048, 32, 128), (1, 2)),   # 2 KiB, 64 KiB
    ("float64", (4096, 4096, 4), (0, 1)),         # 32 B, 128 KiB
    ("complex128", (4096, 4096, 4), (0, 1)),      # 64 B, 256 KiB
    ("bfloat16", (4096, 4096, 16), (0, 1)),       # 32 B, 128 KiB
    ("float64", (16384, 1024, 4), (0, 1)),        # 32 B, 32 KiB
    ("float64", (65536, 256, 4), (0, 1)),         # 32 B, 8 KiB
    ("float32", (2048, 8192, 16), (0, 1)),        # 64 B, 512 KiB
]


def main(tag):
    op = torch.ops.gputranspose.transpose
    for dtype_name, shape, dims in CASES:
        inputs = rotated_inputs(shape, DTYPES[dtype_name], None)
        probe = inputs[0]
        assert torch_transpose.explain(probe, *dims)["path"] == "wide_elements"
        expected = probe.transpose(*dims).contiguous()
        if not torch.equal(op(probe, *dims).view(-1).view(torch.uint8), expected.view(-1).view(torch.uint8)):
            raise SystemExit(f"WRONG RESULT {tag} {dtype_name} {shape}")
        cases = {"ours": (lambda x: op(x, *dims), inputs),
                 "copy": (lambda c: torch.empty_like(c).copy_(c), inputs)}
        t = time_interleaved_ms(cases, reps=60, warmup=5, rounds=6, head_start=True)
        print(json.dumps({"tag": tag, "dtype": dtype_name, "shape": "x".join(map(str, shape)),
                          "dims": dims, "ours_us": 1e3 * t["ours"], "copy_us": 1e3 * t["copy"],
                          "ours_over_copy": t["ours"] / t["copy"]}), flush=True)
        del inputs, probe, expected
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main(sys.argv[1])
