"""A/B of kernel-choice variants in one process (a development build): the op under each
variant's overrides (torch_transpose._C._transpose_tuned), ATen and a same-size copy, on the
random-shape sweep's cases (bench_sweep.sample_cases) whose kernel some variant changes;
with --permute, permute (_permute_tuned) against ATen's permute().contiguous() on the permute
sweep's random cases (bench_permute.sample_random_cases).

    python benchmarks/bench_ab.py --variant square=unit_tile_bytes=0 \\
        --variant rule= [--seeds 101,102] [--max-mib 512] [--time-limit 240] [--out FILE]
    python benchmarks/bench_ab.py --permute --variant rule= --variant nd=nd_tiles=1 [...]

A variant is NAME=KEY=VALUE,KEY=VALUE... with the keyword overrides of _transpose_tuned
(fallback, small_dim, unit_tile_bytes, element_runs, one_unit_tiles, wide_16, nd_tiles,
wide_realigned, batched_small, tile_group_rows, interleave, l2_bytes, memory_bytes_per_s); NAME= alone is
the rules' own choice. Tune on seeds other than the sweep's (0), whose cases judge the
result. Each case is checked byte for byte against ATen for every variant first, then timed
by the sweep's own case runner
(bench_sweep.Sweep: CUDA events, medians over rounds that visit every implementation in turn,
one cursor over input copies that outgrow L2, cases that do not fit the GPU skipped). Prints a
line a case and, by the sweep's classes, the geometric mean of each variant's time over the
first variant's and over the copy's (cases of 16 MiB or more, and all); writes every case to
--out (JSON).
"""

import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import bench_permute as permute  # noqa: E402
import bench_sweep as sweep  # noqa: E402

OVERRIDE_TYPES = {"fallback": int, "small_dim": int, "unit_tile_bytes": int, "element_runs": int,
                  "one_unit_tiles": int, "wide_16": int, "nd_tiles": int, "wide_realigned": int,
                  "batched_small": int,
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


class ABSweep(sweep.Sweep):
    """The sweep's case runner (checks, input copies, timing) with the variants and ATen as
    its functions. transpose_tuned: torch_transpose._C._transpose_tuned, or a stand-in."""

    def __init__(self, args, variants, transpose_tuned, **kwargs):
        super().__init__(args, **kwargs)
        self.variants = variants
        self.transpose_tuned = transpose_tuned

    def functions(self, x, case):
        d0, d1 = case["dims"]
        fns = {name: (lambda o: lambda t: self.transpose_tuned(t, d0, d1, **o))(overrides)
               for name, overrides in self.variants.items()}
        fns["aten"] = lambda t: t.transpose(d0, d1).contiguous()
        return fns

    def record(self, case, seed, kernels):
        """The case's result as the summary reads it: a wrong (or failing) variant is wrong."""
        result = self.run_case(case)
        result.update(seed=seed, kernels=kernels,
                      wrong=sorted(set(result.get("errors", {})) & set(self.variants)))
        if "ratio_to_copy" in result:
            result["ratio"] = result["ratio_to_copy"]
        return result


class ABPermuteSweep(ABSweep):
    """The same on permute cases: each variant through permute_tuned (x, the result's dim
    order), ATen's x.permute(order).contiguous() the reference."""

    def __init__(self, args, variants, permute_tuned, **kwargs):
        super().__init__(args, variants, None, **kwargs)
        self.permute_tuned = permute_tuned

    def functions(self, x, case):
        order = permute.result_order(case)
        fns = {name: (lambda o: lambda t: self.permute_tuned(t, order, **o))(overrides)
               for name, overrides in self.variants.items()}
        fns["aten"] = lambda t: t.permute(order).contiguous()
        return fns

    def explain(self, x, case):
        import torch_transpose

        return torch_transpose.explain_permute(x, permute.result_order(case))


def summary_lines(records, names, large_bytes=sweep.LARGE_BYTES):
    """Per class and overall: each variant's time over the first variant's, and over the copy's."""
    geomean = sweep._geomean
    lines = []
    for label, size, subset in sweep.class_groups(records, large_bytes=large_bytes):
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
    parser.add_argument("--permute", action="store_true",
                        help="the permute sweep's random cases through permute")
    args = parser.parse_args(argv)
    variants = dict(parse_variant(v) for v in args.variant)
    names = list(variants)
    if len(names) < 2:
        parser.error("give two variants or more")

    import torch
    import torch_transpose

    tuned = torch_transpose._C
    if not tuned.development_build():
        sys.exit("bench_ab.py needs a development build (GPUTRANSPOSE_DEVELOPMENT=1)")
    args.warmup, args.no_compile = 2, True
    if args.permute:
        ab = ABPermuteSweep(args, variants, tuned._permute_tuned)
        sample = permute.sample_random_cases
        describe = permute.describe

        def explain_tuned(x, case, overrides):
            return tuned._explain_permute_tuned(x, permute.result_order(case), **overrides)
    else:
        ab = ABSweep(args, variants, tuned._transpose_tuned)
        sample = sweep.sample_cases
        describe = sweep.describe

        def explain_tuned(x, case, overrides):
            return tuned._explain_tuned(x, *case["dims"], **overrides)
    records, wrong, start = [], [], time.time()
    for seed in (int(s) for s in args.seeds.split(",")):
        for case in sample(args.cases, seed):
            if args.time_limit and time.time() - start > args.time_limit:
                break
            if case["bytes"] > args.max_mib * sweep.MIB:
                continue
            # The variants' kernels, from a tensor without memory of the case's layout.
            x = sweep.build_input(case, torch, getattr(torch, case["dtype"]), device="meta")
            kernels, utilization = {}, {}
            for name, overrides in variants.items():
                how = explain_tuned(x, case, overrides)
                kernels[name] = how.get("kernel") or how["path"]
                utilization[name] = how.get("tile_utilization")
            if not differing(kernels):
                continue
            result = ab.record(case, seed, kernels)
            result["tile_utilization"] = utilization
            if "ratio" not in result:
                print(f"s{seed}#{case['id']} {describe(case)}: "
                      f"{result.get('skipped') or result.get('errors')}", flush=True)
                continue
            (wrong if result["wrong"] else records).append(result)
            print(f"s{seed}#{case['id']} {describe(case)}: " +
                  " ".join(f"{n} {v:.2f}" for n, v in result["ratio"].items()) +
                  (f" WRONG {result['wrong']}" if result["wrong"] else ""), flush=True)
    # "Large" as each sweep counts it: 64 MiB for permutes, 16 MiB for transposes.
    large = permute.LARGE_BYTES if args.permute else sweep.LARGE_BYTES
    for line in summary_lines(records, names, large_bytes=large):
        print(line)
    print(f"cases {len(records) + len(wrong)}, wrong {len(wrong)} (left out of the summary)")
    with open(args.out, "w") as f:
        json.dump({"variants": variants, "seeds": args.seeds, "records": records + wrong}, f,
                  indent=1)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
