"""Before/after of the small-dim kernel's long rows and packed spans off 16 bytes (moved in
units of their alignment, then as realigned 16-byte vectors: csrc/core/cuda/realign.cuh).
Two builds cannot share a process (one op namespace): run this once with each build on
PYTHONPATH, then --compare the two JSONs.

    PYTHONPATH=old python ab.py --out old.json; PYTHONPATH=new python ab.py --out new.json
    python ab.py --compare old.json new.json

Cases: the random-shape sweep's distribution (bench_sweep.sample_cases) at seeds other than
the sweep's own (0), those whose kernel is the small-dim kernel with long rows or the packed
span off 16 bytes (`long_rows=any` or `packed=any` in its name); each checked byte for byte
against ATen, then timed by the sweep's case runner (CUDA events, medians, inputs rotated
past the L2) against ATen and a same-size copy."""

import argparse
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "benchmarks"))


def run(args):
    import torch
    import torch_transpose
    import bench_sweep as sweep

    print("build:", os.path.dirname(torch_transpose.__file__), flush=True)
    runner = sweep.Sweep(argparse.Namespace(reps=args.reps, rounds=args.rounds, warmup=3,
                                            no_compile=True))
    results = []
    for seed in args.seeds:
        for case in sweep.sample_cases(args.cases, seed=seed):
            if case["bytes"] > args.max_mib * sweep.MIB:
                continue
            x = sweep.build_input(case, torch, getattr(torch, case["dtype"]), "meta")
            kernel = torch_transpose.explain(x, *case["dims"], device=0).get("kernel") or ""
            if not kernel.startswith("small_dim") or not ("long_rows=any" in kernel or
                                                          "packed=any" in kernel):
                continue
            r = runner.run_case(dict(case, id=f"{seed}-{case['id']}"))
            results.append(r)
            print(r["id"], kernel, r.get("wrong"), r.get("ratio_to_copy"), flush=True)
    with open(args.out, "w") as f:
        json.dump({"device": torch.cuda.get_device_name(0), "torch": torch.__version__,
                   "results": results}, f, indent=1)


def compare(old_path, new_path):
    old = {r["id"]: r for r in json.load(open(old_path))["results"]}
    new = json.load(open(new_path))
    rows = []
    for r in new["results"]:
        o = old.get(r["id"])
        if not o or "times_us" not in r or "times_us" not in o:
            continue
        ratio = r["times_us"]["gputranspose"] / o["times_us"]["gputranspose"]
        drift = r["times_us"]["copy"] / o["times_us"]["copy"]
        rows.append((ratio, drift, r))
        print(f"{r['id']:>8} {r['dtype']:>14} {str(r['shape']):>28} {r['view']:>16} "
              f"{r['bytes'] / 2**20:8.1f} MiB  new/old {ratio:.3f}  copy {drift:.3f}  "
              f"x copy {o['ratio_to_copy']['gputranspose']:.2f} -> "
              f"{r['ratio_to_copy']['gputranspose']:.2f}  (ATen {r['ratio_to_copy']['aten']:.2f})"
              f"  wrong {r['wrong']}")
    for name, keep in [("all", lambda r: True), ("16 MiB or more", lambda r: r["bytes"] >= 16 * 2**20),
                       ("1-byte", lambda r: r["dtype"] in ("uint8", "int8", "bool", "float8_e4m3fn",
                                                           "float8_e5m2"))]:
        sel = [x for x in rows if keep(x[2])]
        if sel:
            g = math.exp(sum(math.log(x[0]) for x in sel) / len(sel))
            d = math.exp(sum(math.log(x[1]) for x in sel) / len(sel))
            print(f"{name}: {len(sel)} cases, new/old geomean {g:.3f} (copy drift {d:.3f}), "
                  f"worst {max(x[0] for x in sel):.3f}")


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--seeds", type=lambda s: [int(v) for v in s.split(",")], default=[101, 102, 103, 104])
    p.add_argument("--cases", type=int, default=500)
    p.add_argument("--max-mib", type=float, default=256)
    p.add_argument("--reps", type=int, default=10)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--out")
    p.add_argument("--compare", nargs=2)
    a = p.parse_args()
    compare(*a.compare) if a.compare else run(a)
