"""Markdown tables from benchmark JSON files (for the README), or their plots:
    python benchmarks/summarize.py benchmarks/results/bench-h200-part*.json
    python benchmarks/summarize.py --plot benchmarks/results/bench-h200-part1.json
(--plot writes each file's PNG beside it, as bench_transpose.py does after a run)."""

import json
import sys

# One colour per implementation, whichever of them a file has rows for.
PLOT_COLORS = {"gputranspose": "tab:blue", "cublas": "tab:orange", "compile": "tab:green",
               "aten": "tab:red"}


def legend_handles(rows):
    """One patch in its fixed colour for each implementation with a bar in any row (the
    panels' own bars cannot serve: a panel may lack an implementation, whose empty bar
    group would take another colour)."""
    from matplotlib.patches import Patch

    return [Patch(facecolor=color, label=impl) for impl, color in PLOT_COLORS.items()
            if any(f"{impl}_frac_of_copy" in r for r in rows)]


def figure(rows, device):
    """Fraction of the same-shape copy's speed, per dtype (one panel each) and shape."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    dtypes = list(dict.fromkeys(r["dtype"] for r in rows))
    shapes = list(dict.fromkeys(r["shape"] for r in rows))
    impls = [i for i in PLOT_COLORS if any(f"{i}_frac_of_copy" in r for r in rows)]
    top = max([1.25] + [1.05 * r[f"{i}_frac_of_copy"] for r in rows for i in impls
                        if f"{i}_frac_of_copy" in r])
    fig, axes = plt.subplots(len(dtypes), 1, figsize=(max(10, 1.2 * len(shapes)), 2.6 * len(dtypes)),
                             squeeze=False)
    width = 0.8 / max(1, len(impls))
    for ax, dtype in zip(axes[:, 0], dtypes):
        for k, impl in enumerate(impls):
            xs, ys = [], []
            for i, shape in enumerate(shapes):
                r = next((r for r in rows if r["dtype"] == dtype and r["shape"] == shape), None)
                if r and f"{impl}_frac_of_copy" in r:
                    xs.append(i + (k - len(impls) / 2 + 0.5) * width)
                    ys.append(r[f"{impl}_frac_of_copy"])
            if xs:
                ax.bar(xs, ys, width, color=PLOT_COLORS[impl])
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_ylim(0, top)
        ax.set_ylabel(f"{dtype}\nfraction of copy")
        ax.set_xticks(range(len(shapes)))
        ax.set_xticklabels(shapes, fontsize=7)
    handles = legend_handles(rows)
    axes[0, 0].legend(handles=handles, ncol=max(1, len(handles)), fontsize=8, loc="upper right")
    fig.suptitle(f"Transpose speed as a fraction of a same-shape copy ({device})")
    fig.tight_layout()
    return fig


def plot(rows, path, device):
    """figure(rows, device), written to path."""
    fig = figure(rows, device)
    import matplotlib.pyplot as plt

    fig.savefig(path, dpi=110)
    plt.close(fig)


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
    if sys.argv[1:2] == ["--plot"]:
        for path in sys.argv[2:]:
            with open(path) as f:
                data = json.load(f)
            plot(data["rows"], path[: -len(".json")] + ".png", data["environment"]["device"])
    else:
        main(sys.argv[1:])
