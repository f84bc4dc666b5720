"""v47 A/B: gputranspose against the same-shape copy on wide-element cases whose input runs
end mid-line (and controls), interleaved in rounds; one JSON line a case.
    PYTHONPATH=TREE:benchmarks python3 wide_release_time.py TAG   (from the repository root)"""
import json
import sys

import torch

import torch_transpose
from bench_transpose import DTYPES, check_against_aten, rotated_inputs, time_interleaved_ms

# dtype, (B, S, H, D), dims: element bytes
CASES = [
    ("float32", (8, 2048, 32, 68), (1, 2)),    # 272 B: runs end mid-line
    ("float32", (8, 2048, 32, 36), (1, 2)),    # 144 B
    ("bfloat16", (8, 2048, 32, 72), (1, 2)),   # 144 B
    ("bfloat16", (8, 2048, 32, 136), (1, 2)),  # 272 B
    ("bfloat16", (8, 2048, 32, 128), (1, 2)),  # 256 B: the suite's heads (control)
    ("float64", (4096, 4096, 4), (0, 1)),      # 32 B, rows 128 KiB apart (control)
]


def main(tag):
    op = torch.ops.gputranspose.transpose
    for dtype_name, shape, dims in CASES:
        inputs = rotated_inputs(shape, DTYPES[dtype_name], None)
        assert torch_transpose.explain(inputs[0], *dims)["path"] == "wide_elements"
        ours = lambda x: op(x, *dims)  # noqa: E731
        check_against_aten({"gputranspose": ours}, inputs[0], f"{tag} {dtype_name} {shape}", dims)
        cases = {"ours": (ours, inputs), "copy": (lambda c: torch.empty_like(c).copy_(c), inputs)}
        t = time_interleaved_ms(cases, reps=60, warmup=5, rounds=6, head_start=True)
        print(json.dumps({"tag": tag, "dtype": dtype_name, "shape": "x".join(map(str, shape)),
                          "dims": dims, "ours_us": 1e3 * t["ours"], "copy_us": 1e3 * t["copy"],
                          "ours_over_copy": t["ours"] / t["copy"]}), flush=True)
        del inputs, cases
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main(sys.argv[1])
