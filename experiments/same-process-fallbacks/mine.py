"""Same-process evidence for the kernel choice's fallbacks to ATen's strided copy: every
random-shape sweep, permute sweep and A/B in this repository's history times ATen's copy
beside the op's kernel on the same inputs in one process. This collects them, keeps the
cases whose measured kernel is the one the rule would run without the fallbacks (the
choice with fallback=0 where the rule falls back for a reason named below; a case's median
over its measurements), and prints, per fallback rule, the cases it takes and ATen's time
over the kernel's.

    g++ -O1 -std=c++17 -I../../csrc -I../../tests/cpp -I/usr/local/cuda/include \\
        case_choices.cpp ../../csrc/core/{kernel_choice,layout_plan,nd_tiles}.cpp -o case_choices
    python mine.py
"""
import collections
import json
import math
import statistics
import subprocess

ITEMSIZE = {"bool": 1, "uint8": 1, "int8": 1, "float8_e5m2": 1, "float8_e4m3fn": 1, "int16": 2,
            "float16": 2, "bfloat16": 2, "int32": 4, "float32": 4, "int64": 8, "float64": 8,
            "complex64": 8, "complex128": 16}
# The result files (path, commits that hold versions of it): sweeps and A/Bs on the H100.
SOURCES = {
    "benchmarks/results/sweep-h100.json": ["6032e02", "232bf85", "f7b54c9", "8e60f40", "432823a",
                                           "81c2c3e"],
    "benchmarks/results/permute-h100.json": ["6032e02", "232bf85", "fc900f2"],
    "experiments/nd-routing/results/ab-nd-permute.json": ["b32b7c3"],
    "experiments/nd-words/results/ab-nd-permute.json": ["b32b7c3"],
    "experiments/nd-words/results/ab-nd-permute-elements.json": ["b32b7c3"],
    "experiments/realigned-wide/results/ab-realigned.json": ["b32b7c3"],
    "experiments/nd-small-sides/results/ab-nd-permute.json": ["aef0264"],
    "experiments/nd-2d-tiles/results/ab-transpose.json": ["49a8a29"],
    "experiments/nd-2d-tiles/results/ab-permute.json": ["49a8a29"],
    "experiments/batched-small-walk/ab-walk.json": ["d8df32a"],
    "experiments/unit-words-diet/results/sweep-full-patch-h100.json": ["dbf72e7"],
}
RULES = {
    "folded 16-byte values": "16-byte values in tiles of several small matrices",
    "sparse tiles in the L2": "tiles filled under a quarter whose input fits the L2",
}
# Each rule's domain, the cases it could take (from the choice with fallback=0): those it
# leaves with the kernel are listed too.
DOMAINS = {
    "folded 16-byte values": lambda dtype, kept, e, util: (
        dtype == "complex128" and e == 16 and "tiling=folded" in kept),
    "sparse tiles in the L2": lambda dtype, kept, e, util: (
        kept.startswith("tiled<") and e >= 2 and util < 0.25),
}


def measurements():
    """(case key, layout line, measured {kernel: ratio to copy}, ATen's ratio, nd's ratio)."""
    for path, commits in SOURCES.items():
        for commit in commits:
            data = json.loads(subprocess.run(["git", "show", f"{commit}:{path}"], check=True,
                                             capture_output=True, text=True).stdout)
            for r in data.get("cases") or data.get("records") or []:
                ratio = r.get("ratio_to_copy", {})
                if not ratio.get("aten"):
                    continue
                if "perm" not in r:
                    if "dims" not in r:
                        continue
                    order = list(range(len(r["shape"])))
                    a, b = r["dims"]
                    order[a], order[b] = order[b], order[a]
                    r["perm"] = order
                kernels = ({v: (k or "", ratio[v]) for v, k in r["kernels"].items() if ratio.get(v)}
                           if "kernels" in r else
                           {"gputranspose": (r.get("kernel") or "", ratio.get("gputranspose"))})
                e = ITEMSIZE[r["dtype"]]
                line = " ".join(map(str, [e, r["storage_offset"] * e, len(r["shape"]), *r["shape"],
                                          *r["strides"], *r["perm"]]))
                key = (r["dtype"], tuple(r["shape"]), tuple(r["strides"]), r["storage_offset"],
                       tuple(r["perm"]))
                yield key, line, kernels, ratio["aten"], ratio.get("nd")


def main():
    rows = list(measurements())
    out = subprocess.run(["./case_choices"], input="\n".join(r[1] for r in rows) + "\n",
                         capture_output=True, text=True, check=True).stdout.splitlines()
    taken = collections.defaultdict(lambda: collections.defaultdict(list))
    nd = collections.defaultdict(lambda: collections.defaultdict(list))
    left = collections.defaultdict(lambda: collections.defaultdict(list))
    for (key, _, kernels, aten, nd_ratio), choice in zip(rows, out):
        kernel, reason, kept, row_stride, e, util, past_l2 = choice.split("|")
        rule = next((name for name, text in RULES.items() if reason.startswith(text)), None)
        if rule is None:
            for name, domain in DOMAINS.items():
                if domain(key[0], kept, int(e), float(util)):
                    for measured, ratio in kernels.values():
                        if measured == kept and ratio:
                            left[name][key].append((ratio, aten, int(row_stride) * int(e),
                                                    past_l2 == "1"))
            continue
        for measured, ratio in kernels.values():
            if measured == kept and ratio:
                taken[rule][key].append((ratio, aten))
        if nd_ratio:
            nd[rule][key].append((nd_ratio, aten))
    print(f"{len(rows)} measurements")
    for rule in RULES:
        cases = taken[rule]
        q = {k: statistics.median(r / a for r, a in v) for k, v in cases.items()}
        aten_over = [1 / x for x in q.values()]
        print(f"\n{rule}: {len(cases)} cases; ATen's copy over the kernel: "
              f"{min(aten_over):.2f}-{max(aten_over):.2f}, geomean "
              f"{math.exp(sum(map(math.log, aten_over)) / len(aten_over)):.2f}; "
              f"the kernel faster in {sum(1 for x in aten_over if x > 1.03)}")
        for k, v in sorted(cases.items(), key=lambda kv: q[kv[0]], reverse=True):
            kernel_ratio = statistics.median(r for r, _ in v)
            aten_ratio = statistics.median(a for _, a in v)
            print(f"  {k[0]:14} {str(list(k[1])):28} {list(k[4])} offset {k[3]}: "
                  f"{kernel_ratio:.2f}x -> {aten_ratio:.2f}x a copy ({len(v)} runs)")
        for k, v in sorted(left[rule].items(), key=lambda kv: kv[1][0][2]):
            kernel_ratio = statistics.median(r for r, *_ in v)
            aten_ratio = statistics.median(a for _, a, *_ in v)
            print(f"  left: {k[0]:14} {str(list(k[1])):28} {list(k[4])}: rows {v[0][2]} B apart"
                  f"{', past the L2' if v[0][3] else ''}: {kernel_ratio:.2f}x, ATen "
                  f"{aten_ratio:.2f}x a copy")
        if nd[rule]:
            nds = [statistics.median(r for r, _ in v) for v in nd[rule].values()]
            atens = [statistics.median(a for _, a in v) for v in nd[rule].values()]
            slower = sum(1 for v in nd[rule].values()
                         if statistics.median(r / a for r, a in v) > 1)
            print(f"  nd tiles forced on {len(nds)} of them: {min(nds):.2f}-{max(nds):.2f}x a copy, "
                  f"ATen {min(atens):.2f}-{max(atens):.2f}x; nd slower than ATen in {slower}")


if __name__ == "__main__":
    main()
