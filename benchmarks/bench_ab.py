"""A/B of kernel-choice variants in one process (a development build): the op under each
variant's overrides (torch_transpose._C._transpose_tuned), ATen and a same-size copy, on the
random-shape sweep's cases (bench_sweep.sample_cases) whose kernel some variant changes.

    python benchmarks/bench_ab.py --variant square=unit_tile_bytes=0 \\
        --variant rule= [--seeds 101,102] [--max-mib 512] [--time-limit 240] [--out FILE]

A variant is NAME=KEY=VALUE,KEY=VALUE... with the keyword overrides of _transpose_tuned
(fallback, small_dim, unit_tile_bytes, element_runs, tile_group_rows, interleave, l2_bytes,
memory_bytes_per_s); NAME= alone is the rules' own choice. Tune on seeds other than the
sweep's (0), whose cases judge the result. Each case is checked byte for byte against ATen
for every variant first, then timed as the sweep times (CUDA events, medians over rounds
that visit every implementation in turn, one cursor over inputs that outgrow L2). Prints a
line a case and, by the sweep's classes, the geometric mean of each variant's time over the
first variant's and over the copy's (cases of 16 MiB or more, and all); writes every case to
--out (JSON).
"""

import argparse
import json
import math
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import bench_sweep as sweep  # noqa: E402

OVERRIDE_TYPES = {"fallback": int, "small_dim": int, "unit_tile_bytes": int, "element_runs": int,
                  "tile_group_rows": int, "interleave": int, "l2_bytes": int,
                  "memory_bytes_per_s": float}


def parse_variant(text):
    """'name=key=value,key=value' -> (name, {key: value}); 'name=' -> (name, {})."""
    name, sep, rest = text.partition("=")
    if not name or not sep:
        raise ValueError(f"a variant is NAME=KEY=VALUE,...: {text!r}")
    overrides = {}
    for item in filter(None, rest.split(",")):
        key, sep, value = item.partition("=")
        if key not in OVERRIDE_TYPES or not sep:
            raise ValueError(f"unknown override {item!r} (one of {', '.join(OVERRIDE_TYPES)})")
        overrides[key] = OVERRIDE_TYPES[key](value)
    return name, overrides


def differing(kernels):
    """Whether the variants' kernels (explain()'s kernel, or its path) differ."""
    return len(set(kernels.values())) > 1


def geomean(values):
    values = list(values)
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def summary_lines(records, names, large_bytes=sweep.LARGE_BYTES):
    """Per class and overall: each variant's time over the first variant's, and over the copy's."""
    lines = []
    classes = sorted({r["class"] for r in records})
    for label, group in [("all", records)] + [(c, [r for r in records if r["class"] == c])
                                              for c in classes]:
        for size, subset in (("16 MiB+", [r for r in group if r["bytes"] >= large_bytes]),
                             ("any size", group)):
            if not subset:
                continue
            parts = [f"{n} {geomean(r['ratio'][n] / r['ratio'][names[0]] for r in subset):.3f}"
                     f" ({geomean(r['ratio'][n] for r in subset):.2f}x copy)" for n in names]
            parts.append(f"aten {geomean(r['ratio']['aten'] for r in subset):.2f}x copy")
            lines.append(f"{label}, {size}, {len(subset)} cases: " + "; ".join(parts))
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", required=True,
                        help="NAME=KEY=VALUE,... (at least two)")
    parser.add_argument("--seeds", default="101,102")
    parser.add_argument("--cases", type=int, default=500, help="cases a seed")
    parser.add_argument("--max-mib", type=int, default=512)
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=0.0, help="start no case after it")
    parser.add_argument("--out", default="ab.json")
    args = parser.parse_args(argv)
    variants = dict(parse_variant(v) for v in args.variant)
    names = list(variants)
    if len(names) < 2:
        parser.error("give two variants or more")

    import torch
    import torch_transpose
    from bench_transpose import time_interleaved_ms

    tuned = torch_transpose._C
    if not torch_transpose._C.development_build():
        sys.exit("bench_ab.py needs a development build (GPUTRANSPOSE_DEVELOPMENT=1)")
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    records, start = [], time.time()
    for seed in (int(s) for s in args.seeds.split(",")):
        for case in sweep.sample_cases(args.cases, seed):
            if args.time_limit and time.time() - start > args.time_limit:
                break
            alloc = sweep.allocated_elements(case) * sweep.ITEMSIZE[case["dtype"]]
            if case["bytes"] > args.max_mib * sweep.MIB or alloc > 2 << 30:
                continue
            dtype = getattr(torch, case["dtype"])
            x = sweep.build_input(case, torch, dtype)
            d0, d1 = case["dims"]
            kernels = {}
            for n, o in variants.items():
                how = tuned._explain_tuned(x, d0, d1, **o)
                kernels[n] = how.get("kernel") or how["path"]
            if not differing(kernels):
                continue
            fns = {n: (lambda o: lambda t: tuned._transpose_tuned(t, d0, d1, **o))(o)
                   for n, o in variants.items()}
            fns["aten"] = lambda t: t.transpose(d0, d1).contiguous()
            want = sweep.raw_bytes(x.transpose(d0, d1).contiguous())
            wrong = [n for n, f in fns.items() if not torch.equal(sweep.raw_bytes(f(x)), want)]
            copies = max(2, min(math.ceil(2 * l2 / max(case["bytes"], 1)) + 1,
                                (6 << 30) // max(alloc, 1)))
            inputs = [x] + [sweep.build_input(case, torch, dtype) for _ in range(copies - 1)]
            sources = [torch.empty(x.numel(), dtype=dtype, device="cuda").copy_(t.reshape(-1))
                       for t in inputs]
            out = torch.empty(x.numel(), dtype=dtype, device="cuda")
            timed = {n: (f, inputs) for n, f in fns.items()}
            timed["copy"] = (lambda s: out.copy_(s), sources)
            ms = time_interleaved_ms(timed, args.reps, 2, args.rounds, head_start=True,
                                     head_start_cycles=sweep.HEAD_START_CYCLES_PER_REP)
            record = {k: case[k] for k in ("id", "dtype", "shape", "dims", "view", "bytes", "class")}
            record.update(seed=seed, kernels=kernels, wrong=wrong,
                          ratio={n: ms[n] / ms["copy"] for n in ms if n != "copy"})
            records.append(record)
            print(f"s{seed}#{case['id']} {sweep.describe(case)}: " +
                  " ".join(f"{n} {v:.2f}" for n, v in record["ratio"].items()) +
                  (f" WRONG {wrong}" if wrong else ""), flush=True)
            del inputs, sources, out, x, want, timed, fns
            torch.cuda.empty_cache()
    for line in summary_lines(records, names):
        print(line)
    print(f"cases {len(records)}, wrong {sum(bool(r['wrong']) for r in records)}")
    with open(args.out, "w") as f:
        json.dump({"variants": variants, "seeds": args.seeds, "records": records}, f, indent=1)
    return 1 if any(r["wrong"] for r in records) else 0


if __name__ == "__main__":
    sys.exit(main())
