"""Markdown tables from benchmark JSON files (for the README):
    python benchmarks/summarize.py benchmarks/results/bench-h200-part*.json"""

import json
import sys


def main(paths):
    rows, env = [], None
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        env = env or data["environment"]
        rows += data["rows"]
    dtypes = list(dict.fromkeys(r["dtype"] for r in rows))
    shapes = list(dict.fromkeys(r["shape"] for r in rows))
    print(f"{env['device']}, driver {env['driver']}, torch {env['torch']}, CUDA {env['cuda']}, "
          f"{env['date'][:10]}; 1 GiB copy {env['copy_roofline_gbps']:.0f} GB/s.\n")
    print("gputranspose time / same-shape copy time (1.00 = copy speed; lower is better):\n")
    print("| shape | " + " | ".join(dtypes) + " |")
    print("|---|" + "---|" * len(dtypes))
    for shape in shapes:
        cells = []
        for dtype in dtypes:
            r = next((r for r in rows if r["dtype"] == dtype and r["shape"] == shape), None)
            cells.append(f"{r['ours_over_copy']:.2f}" if r else "-")
        print(f"| {shape} | " + " | ".join(cells) + " |")
    print("\nSpeed-up of gputranspose over each peer (geometric mean over the shapes; worst in brackets):\n")
    print("| dtype | ATen t().contiguous() | cuBLAS geam | torch.compile |")
    print("|---|---|---|---|")
    for dtype in dtypes:
        cells = []
        for peer in ("aten", "cublas", "compile"):
            vals = [r[f"speedup_over_{peer}"] for r in rows if r["dtype"] == dtype and f"speedup_over_{peer}" in r]
            if not vals:
                cells.append("-")
                continue
            gm = 1.0
            for v in vals:
                gm *= v
            gm **= 1 / len(vals)
            cells.append(f"{gm:.2f} ({min(vals):.2f})")
        print(f"| {dtype} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
